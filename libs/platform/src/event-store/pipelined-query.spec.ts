import { toBoundStatement } from './pipelined-query.js';

describe('toBoundStatement', () => {
  it('numbers the placeholders and sends plain values as text (null stays null)', () => {
    expect(toBoundStatement('update t set a = ?, b = ?, c = ? where id = ? and d is not distinct from ?', [1.5, true, 'x', 'id-1', null])).toEqual({
      text: 'update t set a = $1, b = $2, c = $3 where id = $4 and d is not distinct from $5',
      values: ['1.5', 'true', 'x', 'id-1', null],
    });
    expect(toBoundStatement('select 1', [])).toEqual({ text: 'select 1', values: [] });
  });

  it('gives null for what binding could read differently from em.execute: dates, arrays, objects, ?? and \\?', () => {
    expect(toBoundStatement('insert into t values (?)', [new Date()])).toBeNull();
    expect(toBoundStatement('select * from t where id in (?)', [['a', 'b']])).toBeNull();
    expect(toBoundStatement('insert into t values (?)', [{ a: 1 }])).toBeNull();
    expect(toBoundStatement('insert into t values (?)', [undefined])).toBeNull();
    expect(toBoundStatement('select ?? from t where id = ?', ['col', 'x'])).toBeNull();
    expect(toBoundStatement("select data \\? 'k' from t where id = ?", ['x'])).toBeNull();
  });

  it('gives null when the placeholders and the values do not match', () => {
    expect(toBoundStatement('select ? + ?', [1])).toBeNull();
    expect(toBoundStatement('select ?', [1, 2])).toBeNull();
  });
});
