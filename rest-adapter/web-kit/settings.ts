import { createHmac } from 'node:crypto';
import type { Application, Request } from 'express';

/** What the web kit needs to know about the environment it serves. */
export interface WebSettings {
  /**
   * A server-side key this process holds (SECRET embedded, INTERNAL_KEY in the distributed REST
   * adapter); CSRF tokens are keyed with a value derived from it, never with the key itself.
   */
  secret: string;
  /** Public base URL of the environment: cookies are `Secure` when it is https. */
  publicUrl: string;
  /** production or sandbox: a CSRF token of one environment is refused by the other. */
  environment: string;
}

export interface ResolvedWebSettings {
  csrfKey: Buffer;
  secureCookies: boolean;
  environment: string;
}

const configured = new WeakMap<object, ResolvedWebSettings>();

/**
 * Gives the kit's request helpers (CSRF, cookies) their settings for every router mounted on `app`.
 * Called once per app by the assembly (rest-adapter/assemble.ts).
 */
export function configureWebKit(app: Application, settings: WebSettings): void {
  configured.set(app, {
    // Domain separation: the CSRF key is not the key that hashes stored tokens.
    csrfKey: createHmac('sha256', settings.secret).update('polar-web-csrf-v1').digest(),
    secureCookies: new URL(settings.publicUrl).protocol === 'https:',
    environment: settings.environment,
  });
}

export function webSettingsOf(req: Request): ResolvedWebSettings {
  const settings = webSettingsIfConfigured(req);
  if (!settings)
    throw new Error('The web kit is not configured for this app: call configureWebKit(app, …) when assembling it.');
  return settings;
}

/** The settings of the app serving `req`, or undefined when it serves no pages (no `web` in the assembly). */
export function webSettingsIfConfigured(req: Request): ResolvedWebSettings | undefined {
  return configured.get(req.app);
}
