/** Compiles `<projectDir>/src` into `out` (default `<projectDir>/dist`); returns how many files. */
export function buildProject(projectDir: string, out?: string): Promise<number>;
