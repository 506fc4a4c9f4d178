import argon2 from 'argon2';

/** argon2id with OWASP's minimum parameters (19 MiB, 2 passes, 1 lane): 15-28 ms a verify here. */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export class PasswordHasher {
  /** Verified against when an email is unknown, so a wrong email costs as long as a wrong password. */
  private readonly decoy: Promise<string> = argon2.hash('decoy-password-for-constant-time', OPTIONS);

  hash(password: string): Promise<string> {
    return argon2.hash(password, OPTIONS);
  }

  async verify(hash: string | null, password: string): Promise<boolean> {
    const target = hash ?? (await this.decoy);
    const ok = await argon2.verify(target, password).catch(() => false);
    return hash !== null && ok;
  }
}
