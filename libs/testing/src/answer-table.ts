import { VIEWER_SCOPES, type ViewerScope } from '@lv/platform/auth';

/**
 * The kinds of caller the reader matrix calls every handler as, in the order of an answer table's
 * columns. A section's name stands for a viewer of the owner's vault whose key opens that section only.
 */
export const MATRIX_CALLERS = [
  'anonymous',
  'owner',
  /** Another signed-in owner, with a vault of their own. */
  'other-owner',
  /** A signed-in user whose token carries the admin claim. */
  'admin',
  'operator',
  ...VIEWER_SCOPES,
  /** A viewer of the owner's vault whose key opens every section. */
  'all-sections',
  /** A viewer of the other owner's vault, every section open. */
  'other-vault',
  /** Viewers of the owner's vault, every section open, whose token expired or whose session was revoked. */
  'expired',
  'revoked',
] as const;
export type MatrixCaller = (typeof MATRIX_CALLERS)[number];

export const isSectionViewer = (caller: MatrixCaller): caller is ViewerScope => (VIEWER_SCOPES as readonly string[]).includes(caller);

/**
 * How a table writes an answer. The guard's three refusals, a reply and a refused payload are short
 * words; any other answer is the error code the service gave (NOT_FOUND, UPGRADE_REQUIRED...).
 */
const WORDS: Readonly<Record<string, string>> = {
  ok: 'OK', unauth: 'UNAUTHENTICATED', forbid: 'FORBIDDEN', expired: 'SESSION_EXPIRED',
  // Past the guard, refused by the payload's check: the matrix sends `{}` unless a spec gives a payload.
  invalid: 'VALIDATION_FAILED',
};
const WORD_OF: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(WORDS).map(([word, code]) => [code, word]));
/** Answers that are a fault, never what a table may expect. */
const CRASHES = ['INTERNAL', 'SERVICE_UNAVAILABLE'];

export const isCrash = (code: string): boolean => CRASHES.includes(code) || code.startsWith('ERROR');
export const wordFor = (code: string): string => WORD_OF[code] ?? code;

/** Per subject (unscoped), the answer code each kind of caller must get. */
export type AnswerTable = ReadonlyMap<string, Readonly<Record<MatrixCaller, string>>>;

/**
 * Reads a service's expected answers, written as a text table:
 *
 *     subject            anonymous owner other-owner admin operator | timeline letters ... | other-vault expired revoked
 *     rpc.letters.list   unauth    ok    ok          ok    forbid   | forbid   ok      ... | ok          expired expired
 *
 * The header names every caller of MATRIX_CALLERS in order; `|` only groups columns; `#` starts a
 * comment. Written by hand, never from the handlers' declarations: a declaration that changes must
 * fail its service's matrix until someone changes the table too.
 */
export function answerTable(text: string): AnswerTable {
  const lines = text.split('\n').map((line) => line.replace(/#.*$/, '').split(/\s+/).filter((cell) => cell && cell !== '|')).filter((cells) => cells.length);
  const [header, ...rows] = lines;
  const expectedHeader = ['subject', ...MATRIX_CALLERS];
  if (header?.join(' ') !== expectedHeader.join(' ')) {
    throw new Error(`answerTable: the header must be "${expectedHeader.join(' ')}", not "${header?.join(' ') ?? ''}"`);
  }
  const table = new Map<string, Record<MatrixCaller, string>>();
  for (const [subject, ...cells] of rows) {
    if (!subject) continue;
    if (table.has(subject)) throw new Error(`answerTable: ${subject} has two rows`);
    if (cells.length !== MATRIX_CALLERS.length) throw new Error(`answerTable: ${subject} has ${cells.length} answers for ${MATRIX_CALLERS.length} callers`);
    const codes = cells.map((cell) => {
      const code = WORDS[cell] ?? (/^[A-Z][A-Z_]+$/.test(cell) ? cell : undefined);
      if (!code) throw new Error(`answerTable: ${subject}: "${cell}" is neither ${Object.keys(WORDS).join(', ')} nor an error code`);
      if (isCrash(code)) throw new Error(`answerTable: ${subject}: ${code} is a fault, never an expected answer`);
      return code;
    });
    table.set(subject, Object.fromEntries(MATRIX_CALLERS.map((caller, i) => [caller, codes[i]!])) as Record<MatrixCaller, string>);
  }
  return table;
}

/** One call of the matrix: who called what, and what came back. */
export interface MatrixAnswer {
  subject: string;
  caller: MatrixCaller;
  /** 'OK' for a reply, else the error code (or `ERROR <text>` for no answer at all). */
  code: string;
  /** The handler and its declaration, to explain a wrong answer (never to decide what is right). */
  handler: string;
  declared: string;
}

export interface TableComparison {
  /** Subjects the service answers with no row in the table. */
  unlisted: string[];
  /** Rows of the table that no handler of the service answers. */
  rowsWithoutHandler: string[];
  /** `subject caller: expected X, got Y (handler, declared ...)` for every cell the service answered otherwise. */
  wrongAnswers: string[];
}

export function compareWithTable(table: AnswerTable, answers: readonly MatrixAnswer[]): TableComparison {
  const answered = new Set(answers.map((a) => a.subject));
  const wrongAnswers: string[] = [];
  for (const a of answers) {
    const expected = table.get(a.subject)?.[a.caller];
    if (expected !== undefined && expected !== a.code) {
      wrongAnswers.push(`${a.subject} ${a.caller}: expected ${wordFor(expected)}, got ${wordFor(a.code)} (${a.handler}, declared ${a.declared})`);
    }
  }
  return {
    unlisted: [...answered].filter((subject) => !table.has(subject)).sort(),
    rowsWithoutHandler: [...table.keys()].filter((subject) => !answered.has(subject)).sort(),
    wrongAnswers,
  };
}

/** The answers as a table in answerTable's form: what a failing spec shows, to compare with its own. */
export function formatAnswers(answers: readonly MatrixAnswer[]): string {
  const subjects = [...new Set(answers.map((a) => a.subject))];
  const word = (subject: string, caller: MatrixCaller) => wordFor(answers.find((a) => a.subject === subject && a.caller === caller)?.code ?? '?');
  const cells = subjects.map((subject) => MATRIX_CALLERS.map((caller) => word(subject, caller)));
  // A rare long code (UPGRADE_REQUIRED) runs over its column rather than widening every row.
  const widths = MATRIX_CALLERS.map((caller, i) => Math.max(caller.length, ...cells.map((row) => row[i]!.length).filter((length) => length <= 'NOT_FOUND'.length)));
  const subjectWidth = Math.max('subject'.length, ...subjects.map((s) => s.length));
  // Owners and operators | this vault's viewers | viewers who must see nothing of it.
  const groupStarts: readonly MatrixCaller[] = [VIEWER_SCOPES[0], 'other-vault'];
  const line = (first: string, row: readonly string[]) =>
    [first.padEnd(subjectWidth), ...MATRIX_CALLERS.flatMap((caller, i) => [...(groupStarts.includes(caller) ? ['|'] : []), row[i]!.padEnd(widths[i]!)])].join(' ').trimEnd();
  return [line('subject', MATRIX_CALLERS), ...subjects.map((subject, i) => line(subject, cells[i]!))].join('\n');
}
