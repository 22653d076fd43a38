import { html, type SafeHtml } from '../../web-kit/html.js';
import { csrfField } from '../../web-kit/layout.js';
import { formatDate } from './portal-format.js';
import { noticeBox } from './portal-layout.js';

type Wire = Record<string, any>;

/** Types whose content has a section of its own (the keys to copy, the files to download). */
const OWN_SECTIONS = new Set(['license_keys', 'downloadables']);

export interface BenefitsPage {
  /** `customer_portal:license_keys:list` items (the whole key). */
  keys: Wire[];
  /** `customer_portal:downloadables:list` items: the files of grants held now, with signed links. */
  files: Wire[];
  /** `customer_portal:benefit-grants:list` items: the grants held now (the page still skips any revoked one). */
  grants: Wire[];
  /**
   * `customer_portal:license_keys:get`'s live activations, by key id (keys with an activation limit;
   * the list route's keys carry none).
   */
  activations: Map<string, Wire[]>;
  /** The API's signed link as this site's path (or null when it is no web address). */
  link(url: unknown): string | null;
  /** `/portal/<slug>`: where a deactivation posts. */
  base: string;
  csrfToken: string;
  notice: string | null;
}

/**
 * The Benefits tab: license keys to copy (each whole in one `user-select: all` element), files to
 * download through their signed links (name, size), and every other benefit held now by its
 * description, a custom benefit with its note. A revoked grant, and a revoked key, is not shown. A key's
 * activations are listed (label, date) each with a Deactivate button, which posts to
 * `/portal/<slug>/benefits/deactivate` (Polar's portal offers the same through the public deactivate route).
 */
export function benefitsBody(page: BenefitsPage): SafeHtml {
  const held = page.grants.filter(g => g.is_granted && !g.is_revoked);
  const described = new Map(held.map(g => [g.benefit_id, g.benefit?.description as string | undefined]));
  const keys = page.keys.filter(k => k.status !== 'revoked');
  const others = held.filter(g => !OWN_SECTIONS.has(g.benefit?.type));
  if (!keys.length && !page.files.length && !others.length)
    return html`<h1>Benefits</h1>${noticeBox(page.notice)}<p class="muted">You have no benefits.</p>`;
  return html`<h1>Benefits</h1>${noticeBox(page.notice)}
${keys.length ? licenseKeys(keys, described, page) : null}
${page.files.length ? files(page.files, page.link) : null}
${others.length ? otherBenefits(others) : null}`;
}

function licenseKeys(keys: Wire[], described: Map<string, string | undefined>, page: BenefitsPage): SafeHtml {
  return html`<h2>License keys</h2><ul class="plain">${keys.map(
    k =>
      html`<li>${described.get(k.benefit_id) ? html`<strong>${described.get(k.benefit_id)}</strong>` : null}<code class="secret" aria-label="License key">${k.key ?? k.display_key}</code><div class="muted">${
        k.status === 'granted' ? 'Active' : k.status
      }${k.expires_at ? html` · expires ${formatDate(k.expires_at)}` : null}${
        k.limit_activations ? html` · up to ${k.limit_activations} activations` : null
      }</div>${k.limit_activations ? activationList(k, page.activations.get(k.id) ?? [], page) : null}</li>`,
  )}</ul>`;
}

/** A key's live activations, oldest first: label, date, and a button that deactivates it. */
function activationList(key: Wire, activations: Wire[], page: BenefitsPage): SafeHtml {
  if (!activations.length) return html`<p class="muted">Not activated on any device yet.</p>`;
  return html`<table aria-label="Activations of ${key.display_key ?? 'the key'}"><thead><tr><th>Activation</th><th>Activated</th><th></th></tr></thead><tbody>${activations.map(
    a =>
      html`<tr><td>${a.label}</td><td><time datetime="${a.created_at}">${formatDate(a.created_at)}</time></td><td><form method="post" action="${page.base}/benefits/deactivate">${csrfField(page.csrfToken)}<input type="hidden" name="license_key_id" value="${key.id}"><input type="hidden" name="activation_id" value="${a.id}"><button type="submit" class="secondary" aria-label="Deactivate ${a.label}">Deactivate</button></form></td></tr>`,
  )}</tbody></table>`;
}

function files(items: Wire[], link: (url: unknown) => string | null): SafeHtml {
  return html`<h2>Files</h2><table><thead><tr><th>File</th><th>Size</th><th></th></tr></thead><tbody>${items.map(d => {
    const href = link(d.file?.download?.url);
    const name: string = d.file?.name ?? 'File';
    return html`<tr><td>${name}</td><td>${d.file?.size_readable ?? ''}</td><td>${
      href ? html`<a href="${href}" download="${name}" aria-label="Download ${name}">Download</a>` : null
    }</td></tr>`;
  })}</tbody></table>`;
}

function otherBenefits(grants: Wire[]): SafeHtml {
  return html`<h2>Other benefits</h2><ul class="plain">${grants.map(
    g =>
      html`<li><strong>${g.benefit?.description ?? g.benefit_id}</strong>${
        g.benefit?.type === 'custom' && g.benefit?.properties?.note
          ? html`<p class="note">${g.benefit.properties.note}</p>`
          : null
      }<div class="muted">Granted ${formatDate(g.granted_at)}</div></li>`,
  )}</ul>`;
}
