import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_VERSIONS } from '../../../kit/api-versions.js';
import { WEBHOOK_EVENT_TYPES } from '../events/event-types.js';
import { envelopeOf, envelopeSeenBy } from '../events/event-envelope.js';
import { EVENT_TYPES_BY_VERSION, receiversOf, UNVERSIONED_EVENT_TYPES } from '../events/event-versions.js';

/**
 * The version table (event-versions.ts) checked against the SDKs' own files, so it is derived, not
 * typed by eye: 0.48.1's `validateEvent` parses the types of its switch and throws on any other;
 * SDK 1.0.1 accepts, per version, the types of that version's `knownEventTypes`.
 */
const modules = fileURLToPath(new URL('../../../node_modules/@polar-sh/', import.meta.url));
const sdk048 = join(modules, 'sdk');
const sdk1 = join(modules, 'sdk-1');

function typesOf048(): string[] {
  const source = readFileSync(join(sdk048, 'dist/esm/webhooks.js'), 'utf8');
  const parse = source.slice(source.indexOf('const parseEvent'));
  return [...parse.matchAll(/case "([^"]+)":/g)].map(m => m[1]);
}

function typesOf1(version: string): string[] {
  const source = readFileSync(join(sdk1, 'dist', version, 'index.mjs'), 'utf8');
  const set = source.match(/knownEventTypes = \/\* @__PURE__ \*\/ new Set\(\[([\s\S]*?)\]\)/);
  if (!set) throw new Error(`no knownEventTypes in SDK 1.0.1's ${version}`);
  return [...set[1].matchAll(/"([^"]+)"/g)].map(m => m[1]);
}

describe('event types per API version', () => {
  it("gives an endpoint without a version exactly the types 0.48.1's validateEvent parses", () => {
    const known = typesOf048();
    expect(known).toHaveLength(35);
    expect([...UNVERSIONED_EVENT_TYPES].sort()).toEqual(
      WEBHOOK_EVENT_TYPES.filter(type => known.includes(type)).sort(),
    );
    expect(known.filter(type => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type))).toEqual([]);
  });

  it("gives each version the types SDK 1.0.1's client of that version accepts (among those this server has)", () => {
    for (const version of API_VERSIONS) {
      const known = typesOf1(version);
      expect([...(EVENT_TYPES_BY_VERSION.get(version) ?? [])].sort()).toEqual(
        WEBHOOK_EVENT_TYPES.filter(type => known.includes(type)).sort(),
      );
    }
  });

  it('sends a type to the endpoints whose version knows it', () => {
    expect(receiversOf('customer.created')).toEqual({ unversioned: true, versions: [...API_VERSIONS] });
    expect(receiversOf('subscription.cycled')).toEqual({ unversioned: false, versions: [...API_VERSIONS] });
  });
});

describe('envelopes', () => {
  const source = { type: 'customer.created', timestamp: new Date('2026-11-28T10:00:00Z'), data: { id: 'c1', n: 1 } };

  it('keeps the unversioned envelope as it was and adds api_version for a version', () => {
    expect(envelopeOf(source, null)).toBe(
      '{"type":"customer.created","timestamp":"2026-11-28T10:00:00.000Z","data":{"id":"c1","n":1}}',
    );
    expect(envelopeOf(source, '2026-10')).toBe(
      '{"type":"customer.created","timestamp":"2026-11-28T10:00:00.000Z","api_version":"2026-10","data":{"id":"c1","n":1}}',
    );
  });

  it('builds from a stored event what an endpoint of the version receives (cli listen), none for a type it lacks', () => {
    const payload = envelopeOf(source, null);
    expect(envelopeSeenBy({ type: source.type, payload }, '2027-01')).toBe(envelopeOf(source, '2027-01'));
    expect(envelopeSeenBy({ type: source.type, payload }, null)).toBe(payload);
    const cycled = { ...source, type: 'subscription.cycled' };
    expect(envelopeSeenBy({ type: cycled.type, payload: envelopeOf(cycled, null) }, null)).toBeNull();
  });
});
