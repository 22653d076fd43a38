import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The transitions folder (subscriptions/transitions/) owns every change of a subscription's state: no
 * other billing source assigns a subscription's status or period. Read from the sources, so a new shortcut fails here.
 */
const billing = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const OWNER = 'subscriptions/transitions/';
const owned = (path: string) => path.startsWith(OWNER);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '__tests__' || entry.name === 'migrations' ? [] : sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The assignments the grep finds (`.status = `, `currentPeriodEnd = `, `currentPeriodStart = `). */
const ASSIGNMENT = /\.status = |currentPeriodEnd = |currentPeriodStart = /;
/** Of those, the ones that change a subscription (other resources own their own `status`). */
const SUBSCRIPTION_STATE = [
  /currentPeriod(Start|End) = /,
  /\.status = SubscriptionStatus\./,
  /\b(s|sub|subscription|subscriptions?\[\w+\])\.(status|pastDueAt|pausedAt|endedAt|canceledAt) = /,
];

const hits = sources(billing).flatMap(file => {
  const path = relative(billing, file).split('\\').join('/');
  // SQL in string literals (`where s.status = any(…)`) reads state, it does not assign it: literals are
  // blanked first (template literals may span lines; their line breaks are kept so line numbers hold).
  const code = readFileSync(file, 'utf8').replace(/`[^`]*`/g, literal => literal.replace(/[^\n]/g, ' '));
  return code
    .split('\n')
    .map((line, i) => ({ path, line: i + 1, text: line.trim().replace(/'[^']*'|"[^"]*"/g, "''") }))
    .filter(({ text }) => ASSIGNMENT.test(text) || SUBSCRIPTION_STATE.some(p => p.test(text)));
});

describe('subscription state changes only through subscriptions/transitions/', () => {
  it('finds the transitions themselves (the check reads what it should)', () => {
    // Both kinds of transition assign state: the caller's (requested.ts) and the lifecycle's (lifecycle.ts).
    expect(hits.some(h => h.path === `${OWNER}requested.ts`)).toBe(true);
    expect(hits.some(h => h.path === `${OWNER}lifecycle.ts`)).toBe(true);
  });

  it.each([
    ['status set to a SubscriptionStatus', /\.status = SubscriptionStatus\./],
    ['current period start', /currentPeriodStart = /],
    ['current period end', /currentPeriodEnd = /],
    ['a subscription variable’s lifecycle field', SUBSCRIPTION_STATE[2]],
  ])('no other file assigns %s', (_what, pattern) => {
    const outside = hits.filter(h => !owned(h.path) && pattern.test(h.text));
    expect(outside.map(h => `${h.path}:${h.line} ${h.text}`)).toEqual([]);
  });
});
