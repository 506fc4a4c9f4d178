// Types of tools/dev/smtp-catcher.mjs for TypeScript tests that start it in-process.
export interface CaughtAddress { name?: string; address: string }
export interface CaughtMessage {
  id: string;
  receivedAt: string;
  envelope: { from: string | null; to: string[] };
  messageId: string | null;
  from: CaughtAddress[];
  to: CaughtAddress[];
  cc: CaughtAddress[];
  replyTo: CaughtAddress[];
  subject: string;
  date: string | null;
  text: string;
  html: string | null;
  headers: Record<string, unknown>;
  attachments: { filename: string | null; contentType: string; size: number; contentId: string | null; content: string | null }[];
  size: number;
}
export interface SmtpCatcherOptions { smtpPort?: number; httpPort?: number; host?: string; directory?: string; log?: (line: string) => void }
export interface RunningSmtpCatcher {
  host: string;
  smtpPort: number;
  httpPort: number;
  url: string;
  directory: string;
  messages: CaughtMessage[];
  clear(): Promise<void>;
  close(): Promise<void>;
}
export declare function startSmtpCatcher(options?: SmtpCatcherOptions): Promise<RunningSmtpCatcher>;
