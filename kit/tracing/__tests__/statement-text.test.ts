import { statementText } from '../statement-text.js';

describe('statementText: what a trace carries of a statement', () => {
  test('string literals, however quoted, become ?', () => {
    expect(
      statementText(`select "o0".* from "identity"."tokens" as "o0" where "o0"."token_hash" = '7b01f4' limit 1`),
    ).toBe(`select "o0".* from "identity"."tokens" as "o0" where "o0"."token_hash" = ? limit ?`);
    expect(statementText(`insert into t (a, b) values ('it''s', E'a\\'b')`)).toBe('insert into t (a, b) values (?, ?)');
    expect(statementText('select $body$secret text$body$, $$x$$')).toBe('select ?, ?');
  });

  test('numbers become ?; identifiers and placeholders stay', () => {
    expect(statementText('update "s1" set amount = 1999, rate = 0.25, e = 1e-3 where id = $1 and t2.n > 7')).toBe(
      'update "s1" set amount = ?, rate = ?, e = ? where id = $1 and t2.n > ?',
    );
    expect(statementText('select "2fa" from t')).toBe('select "2fa" from t');
  });

  test('an unterminated literal is hidden to the end', () => {
    expect(statementText(`select 'never closed, secret`)).toBe('select ?');
  });

  test('a long statement is cut', () => {
    const long = statementText(`select ${'a, '.repeat(2000)}b`);
    expect(long).toHaveLength(2001);
    expect(long.endsWith('…')).toBe(true);
  });
});
