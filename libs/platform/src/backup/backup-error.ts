/** Why a backup, restore or verification stopped; the code leads the message the operator reads. */
export type BackupErrorCode =
  | 'BACKUP_WRONG_PASSWORD'
  | 'BACKUP_NO_REPOSITORY'
  | 'BACKUP_UNKNOWN_SNAPSHOT'
  | 'BACKUP_DAMAGED'
  | 'BACKUP_NEWER_FORMAT'
  | 'BACKUP_TARGET_NOT_EMPTY'
  | 'BACKUP_SOURCE_MISSING'
  | 'BACKUP_BUSY'
  | 'BACKUP_UNREACHABLE'
  | 'BACKUP_VERIFY_FAILED'
  | 'BACKUP_TOOL_FAILED';

/** A refusal the operator can act on: the CLI prints it as it is, without a stack; the scheduled backup records its code. */
export class BackupError extends Error {
  override name = 'BackupError';
  constructor(
    readonly code: BackupErrorCode,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}
