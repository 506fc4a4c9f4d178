import { answerTable, compareWithTable, formatAnswers, MATRIX_CALLERS, type MatrixAnswer, type MatrixCaller } from './answer-table.js';

// The reader matrix's verdict: a hand-written table of answers, read strictly, compared cell by cell.
describe('reader matrix answer tables', () => {
  const header = `subject anonymous owner other-owner admin operator | timeline letters court-journal who-i-am if-im-not-there all-sections | other-vault expired revoked`;
  const listRow = 'rpc.letters.list unauth ok ok ok forbid | forbid ok forbid forbid forbid ok | ok expired expired  # a viewer of Letters reads';
  const answersOf = (subject: string, codes: Partial<Record<MatrixCaller, string>>, fallback = 'OK'): MatrixAnswer[] =>
    MATRIX_CALLERS.map((caller) => ({ subject, caller, code: codes[caller] ?? fallback, handler: 'LettersController.list', declared: 'read(owner, viewer:letters)' }));

  it('reads each row into the code every caller must get, by column', () => {
    const table = answerTable(`\n${header}\n${listRow}\n`);
    expect(table.get('rpc.letters.list')).toEqual({
      anonymous: 'UNAUTHENTICATED', owner: 'OK', 'other-owner': 'OK', admin: 'OK', operator: 'FORBIDDEN',
      timeline: 'FORBIDDEN', letters: 'OK', 'court-journal': 'FORBIDDEN', 'who-i-am': 'FORBIDDEN', 'if-im-not-there': 'FORBIDDEN', 'all-sections': 'OK',
      'other-vault': 'OK', expired: 'SESSION_EXPIRED', revoked: 'SESSION_EXPIRED',
    });
  });

  it('refuses a table whose header, row length or words are not the matrix’s, and a fault as an expected answer', () => {
    expect(() => answerTable(`${header.replace('admin ', '')}\n`)).toThrow(/header must be/);
    expect(() => answerTable(`${header}\nrpc.letters.list unauth ok`)).toThrow(/2 answers for 14 callers/);
    expect(() => answerTable(`${header}\n${listRow.replace('forbid ok forbid', 'denied ok forbid')}`)).toThrow(/"denied" is neither/);
    expect(() => answerTable(`${header}\n${listRow.replace('unauth', 'INTERNAL')}`)).toThrow(/INTERNAL is a fault/);
    expect(() => answerTable(`${header}\n${listRow}\n${listRow}`)).toThrow(/two rows/);
  });

  it('names every cell answered otherwise, every subject without a row and every row without a handler', () => {
    const table = answerTable(`${header}\n${listRow}\nrpc.letters.gone ${'ok '.repeat(MATRIX_CALLERS.length)}`);
    const answers = [
      ...answersOf('rpc.letters.list', { anonymous: 'UNAUTHENTICATED', operator: 'FORBIDDEN', timeline: 'FORBIDDEN', 'court-journal': 'FORBIDDEN', 'who-i-am': 'FORBIDDEN', 'if-im-not-there': 'OK', expired: 'SESSION_EXPIRED', revoked: 'SESSION_EXPIRED' }),
      ...answersOf('rpc.letters.new', {}),
    ];
    expect(compareWithTable(table, answers)).toEqual({
      unlisted: ['rpc.letters.new'],
      rowsWithoutHandler: ['rpc.letters.gone'],
      wrongAnswers: ['rpc.letters.list if-im-not-there: expected forbid, got ok (LettersController.list, declared read(owner, viewer:letters))'],
    });
  });

  it('prints the answers as a table that answerTable reads back, a rare long code running over its column', () => {
    const answers = [
      ...answersOf('rpc.letters.write', { anonymous: 'UNAUTHENTICATED', owner: 'VALIDATION_FAILED' }, 'FORBIDDEN'),
      ...answersOf('rpc.letters.community.posts', { anonymous: 'UNAUTHENTICATED', owner: 'UPGRADE_REQUIRED' }, 'FORBIDDEN'),
    ];
    const printed = formatAnswers(answers);
    expect(printed.split('\n').slice(1, 3)).toEqual([
      expect.stringMatching(/^rpc\.letters\.write {11}unauth {4}invalid forbid {6}forbid/),
      expect.stringMatching(/^rpc\.letters\.community\.posts unauth {4}UPGRADE_REQUIRED forbid {6}forbid/),
    ]);
    expect(compareWithTable(answerTable(printed), answers)).toEqual({ unlisted: [], rowsWithoutHandler: [], wrongAnswers: [] });
  });
});
