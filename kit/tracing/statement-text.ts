/**
 * A statement's text as a trace may carry it (docs/observability.md#traces): its shape, never its values.
 * MikroORM writes values into the statements it sends (a token's hash, an e-mail, an amount), so every
 * literal is replaced by `?` as OpenTelemetry's conventions ask of `db.query.text`: strings ('…', E'…',
 * $tag$…$tag$) and numbers; identifiers ("o0", t1) and placeholders ($1) stay. Long texts are cut.
 */
// Each look-behind comes after the character it guards, so it runs only where an E-string or a number
// could start, not at every position of the text.
const LITERALS =
  /[eE]'(?<![\w$][eE]')(?:[^'\\]|\\.|'')*'?|'(?:[^']|'')*'?|\$([A-Za-z_]\w*)?\$[\s\S]*?(?:\$\1\$|$)|\d(?<![\w$."]\d)\d*(?:\.\d+)?(?:[eE][-+]?\d+)?/g;

const MAX_LENGTH = 2000;

/** Statements the service sends with parameters ($1) are few and sent again and again: their shapes are kept. */
const known = new Map<string, string>();
const MAX_KNOWN = 512;

export function statementText(text: string): string {
  let shape = known.get(text);
  if (shape !== undefined) return shape;
  shape = text.replace(LITERALS, '?');
  if (shape.length > MAX_LENGTH) shape = `${shape.slice(0, MAX_LENGTH)}…`;
  if (known.size >= MAX_KNOWN) known.clear();
  known.set(text, shape);
  return shape;
}
