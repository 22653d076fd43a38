import { createBenefit, uploadFile } from '../support/portal-benefits.js';
import { EmailWorld, type Merchant } from './support/customer-emails.js';

/**
 * The confirmations carry what was just bought (docs/email.md#customer-e-mails): each license key whole and each
 * file's name with a link through the portal's one-time sign-in to the Benefits page, whose download
 * link serves the bytes. Read from a real SMTP server.
 */
jest.setTimeout(120_000);
const world = new EmailWorld();
let ann: Merchant;

beforeAll(async () => {
  await world.start('customer_emails_purchase');
  ann = await world.merchant('Ann Tools');
}, 120_000);
afterAll(() => world.close());

async function productWith(body: Record<string, unknown>, benefits: string[]): Promise<string> {
  const product = await ann.product(body);
  expect((await ann.api('POST', `/v1/products/${product}/benefits`, { benefits })).status).toBe(200);
  return product;
}

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('confirmations with the benefits just bought', () => {
  it('an order confirmation shows the license key and links each file through the portal', async () => {
    const env = world.stack.sandbox;
    const file = await uploadFile(env, ann.owner, 'fonts & <icons>.txt', Buffer.from('the fonts'));
    const key = await createBenefit(env, ann.owner, {
      type: 'license_keys',
      description: 'Pro <key>',
      properties: { prefix: 'ICON' },
    });
    const files = await createBenefit(env, ann.owner, {
      type: 'downloadables',
      description: 'Fonts',
      properties: { files: [file.id] },
    });
    const product = await productWith(
      { name: 'Icon kit', prices: [{ amount_type: 'fixed', price_amount: 2500, price_currency: 'usd' }] },
      [key.id, files.id],
    );
    const buyer = ann.alias('kit');
    await ann.buy(buyer, product);
    const mail = await world.mail(buyer, 'Your Icon kit order confirmation');

    const keys = await ann.api('GET', `/v1/license-keys/?organization_id=${ann.owner.organizationId}&limit=100`);
    const issued = keys.body.items.find((k: any) => k.benefit_id === key.id);
    expect(issued.key).toMatch(/^ICON-/);
    expect(mail.text).toContain(`License key (Pro <key>): ${issued.key}`);
    expect(mail.html).toContain(`License key (Pro &lt;key&gt;):</strong> ${issued.key}`);
    expect(mail.html).toContain('Download fonts &amp; &lt;icons&gt;.txt');
    expect(mail.html).not.toContain('<icons>');
    expect(mail.text).not.toContain('/storage/files/');

    const slug = ann.owner.slug;
    const link = world.link(mail.text, literal('Download fonts & <icons>.txt'));
    expect(link).toMatch(new RegExp(`/portal/${slug}/benefits\\?login_token=polar_cel_`));
    const signedIn = await fetch(link, { redirect: 'manual' });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe(`/portal/${slug}/benefits`);
    const cookie = String(signedIn.headers.get('set-cookie')).split(';')[0];
    const page = await fetch(`${world.base}/portal/${slug}/benefits`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    const href = /href="([^"]*\/storage\/files\/[^"]+)"/.exec(html)?.[1];
    expect(href).toBeDefined();
    const url = new URL(href!.replaceAll('&amp;', '&'), world.base);
    const download = await fetch(`${world.base}${url.pathname}${url.search}`);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('the fonts');
    expect(world.inbox.to(buyer)).toHaveLength(1);
  });

  it('a subscription confirmation shows its license key', async () => {
    const key = await createBenefit(world.stack.sandbox, ann.owner, {
      type: 'license_keys',
      description: 'Seat key',
      properties: { prefix: 'SEAT' },
    });
    const product = await productWith(
      {
        name: 'Seat plan',
        recurring_interval: 'month',
        prices: [{ amount_type: 'fixed', price_amount: 900, price_currency: 'usd' }],
      },
      [key.id],
    );
    const buyer = ann.alias('seat');
    await ann.buy(buyer, product);
    const mail = await world.mail(buyer, 'Your Seat plan subscription');
    expect(mail.text).toMatch(/License key \(Seat key\): SEAT-[0-9A-F-]{36}/);
    expect(mail.text).not.toContain('/benefits?');
  });
});
