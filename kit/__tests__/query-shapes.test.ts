import { compile, param, UnusableQueryShape } from '../database/query-shapes.js';

const built = (sql: string, params: unknown[]) => ({ getQuery: () => sql, getParams: () => params });

describe('query shapes', () => {
  it('turns markers into named bindings and keeps constants', () => {
    const shape = compile(
      built('select * from t where a = ? and b = ? limit ?', [param('a'), 'fixed', param('limit')]),
    );
    expect(shape.sql).toBe('select * from t where a = ? and b = ? limit ?');
    expect(shape.bindings).toEqual([{ name: 'a' }, { constant: 'fixed' }, { name: 'limit' }]);
    expect([...shape.names]).toEqual(['a', 'limit']);
  });

  it('refuses a marker inlined into the SQL', () => {
    expect(() => compile(built(`select * from t where a = '${param('a')}'`, []))).toThrow(UnusableQueryShape);
  });

  it('refuses a marker a type converted before binding', () => {
    expect(() => compile(built('select * from t where j = ?', [JSON.stringify(param('j'))]))).toThrow(
      UnusableQueryShape,
    );
    expect(() => compile(built('select * from t where j = ?', [[param('j')]]))).toThrow(UnusableQueryShape);
  });
});
