export interface TierResult { tier: string; label: string; passed: number; failed: number; skipped: number; note?: string }
export interface JestCounts { passed: number; failed: number; skipped: number; note?: string }
export const JEST_PROJECTS: readonly ['unit', 'web', 'int'];
export function jestProjectOf(file: string): 'unit' | 'web' | 'int';
export function countJestByProject(report: { testResults?: { name?: string; status?: string; assertionResults?: { status: string }[] }[] }): Record<'unit' | 'web' | 'int', JestCounts>;
export function applyMinimums(results: TierResult[], minimums: Record<string, number>, enabled?: (tier: string) => boolean): string[];
