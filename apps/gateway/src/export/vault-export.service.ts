import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Readable, Transform, pipeline } from 'node:stream';
import { ZipFile } from 'yazl';
import {
  AccessKeysRpc, CourtJournalRpc, IdentityRpc, LETTERS_PAGE_MAX, LettersRpc, VaultMediaRpc, type CourtDocument, type Letter, type Recording,
} from '@lv/contracts';
import type { CallContext, RpcClient } from '@lv/platform/nest';
import { COURT_JOURNAL_HTTP } from '../court/court.tokens.js';
import type { ByteStreamProxy } from '../http/byte-stream-proxy.js';
import { RPC_CLIENT } from '../infra/tokens.js';
import { VAULT_MEDIA_HTTP } from '../media/media.tokens.js';
import { indexHtml, itemPath, letterText, manifestOf, sha256Hex, type ExportItem, type ExportItemType, type ExportManifest } from './vault-export.js';

/** Letters fetched at once while the export is planned (each a small RPC). */
const LETTER_FETCHES_IN_FLIGHT = 8;

const MEDIA_TYPES: Record<Recording['collection'], ExportItemType> = {
  vault: 'recording', 'final-messages': 'final-message', 'who-i-am': 'who-i-am-media', 'who-i-am-photo': 'who-i-am-photo',
};

interface TextEntry { kind: 'text'; item: ExportItem; bytes: Buffer }
interface StreamedEntry { kind: 'stream'; item: ExportItem; open: () => Promise<Readable> }
type Entry = TextEntry | StreamedEntry;

/** What a planned export holds before a byte is sent: every item, the small ones already in hand. */
export interface ExportPlan {
  owner: ExportManifest['owner'];
  entries: Entry[];
}

/**
 * "Export Vault Data": the owner's whole vault as one ZIP. Every list and text is gathered first, each
 * from the service that owns it, with the owner's own token (so each service re-checks that it is his,
 * and answers only his); then the ZIP streams: texts, then each original read from vault-media's and
 * court-journal's byte listeners one at a time, hashed on the way, never held whole; manifest.json and
 * index.html come last, so they carry the sizes and SHA-256 of the bytes actually written.
 */
@Injectable()
export class VaultExportService {
  constructor(
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
    @Inject(VAULT_MEDIA_HTTP) private readonly media: ByteStreamProxy,
    @Inject(COURT_JOURNAL_HTTP) private readonly court: ByteStreamProxy,
  ) {}

  /** Everything but the bytes of media and documents; fails (before any byte is sent) when a service cannot answer. */
  async plan(call: CallContext): Promise<ExportPlan> {
    const [profile, preferences, reflection, portrait, contacts, delivery, documents, letters, media] = await Promise.all([
      this.rpc.call(IdentityRpc.getMe, {}, call),
      this.rpc.call(IdentityRpc.notificationPreferences, {}, call),
      this.rpc.call(LettersRpc.reflectionGet, {}, call),
      this.rpc.call(LettersRpc.portraitGet, {}, call),
      this.rpc.call(AccessKeysRpc.listContacts, {}, call),
      this.rpc.call(AccessKeysRpc.deliverySettings, {}, call),
      this.rpc.call(CourtJournalRpc.list, {}, call),
      this.letters(call),
      this.mediaItems(call),
    ]);
    const json = (type: ExportItemType, path: string, title: string, value: unknown, at: string | null): TextEntry =>
      textEntry({ path, type, title, id: null, created_at: null, updated_at: at, content_type: 'application/json' }, `${JSON.stringify(value, null, 2)}\n`);
    const entries: Entry[] = [
      json('profile', 'profile.json', 'Profile', profile, null),
      json('notification-preferences', 'notification-preferences.json', 'Notification settings', preferences, preferences.updated_at),
      ...letters.map((letter) => textEntry({
        path: itemPath('letter', { ...letter, content_type: 'text/plain' }), type: 'letter', title: letter.title, id: letter.id, created_at: letter.created_at, updated_at: letter.updated_at,
        content_type: 'text/plain; charset=utf-8',
      }, letterText(letter))),
    ];
    if (reflection.updated_at) {
      entries.push(textEntry({ path: 'reflection.txt', type: 'reflection', title: 'Thoughts & Feelings', id: null, created_at: null, updated_at: reflection.updated_at, content_type: 'text/plain; charset=utf-8' }, `${reflection.text}\n`));
    }
    if (portrait.updated_at) entries.push(json('who-i-am-portrait', 'who-i-am/portrait.json', 'Who I Am', portrait, portrait.updated_at));
    entries.push(...media.map((recording) => this.mediaEntry(recording, call)));
    entries.push(...documents.map((document) => this.documentEntry(document, call)));
    entries.push(json('emergency-contacts', 'if-im-not-there/emergency-contacts.json', 'Emergency contacts', contacts, null));
    entries.push(json('delivery-settings', 'if-im-not-there/delivery-settings.json', 'Vault delivery settings', delivery, delivery.updated_at));
    return { owner: { id: profile.id, email: profile.email, full_name: profile.full_name }, entries };
  }

  /** The ZIP of a plan. Its outputStream errors (and must be cut off) if an original cannot be read to the end. */
  zip(plan: ExportPlan, now = new Date()): ZipFile {
    const zip = new ZipFile();
    for (const entry of plan.entries) {
      const mtime = new Date(entry.item.updated_at ?? entry.item.created_at ?? now.toISOString());
      if (entry.kind === 'text') {
        zip.addBuffer(entry.bytes, entry.item.path, { mtime, compress: true });
        continue;
      }
      // Opened only when the ZIP reaches it: one upstream read at a time, however large the vault.
      zip.addReadStreamLazy(entry.item.path, { mtime, compress: false }, (done) => {
        entry.open().then(
          // yazl listens for no error of a lazy stream: a read that fails mid-way is reported on the ZIP here.
          (source) => done(null, measured(source, entry.item, (error) => zip.emit('error', error))),
          (error: unknown) => done(error as Error, undefined as never),
        );
      });
    }
    // Last: by now every original has been read through, so sizes and hashes are those written.
    let manifest: ExportManifest | null = null;
    const manifestOfNow = () => (manifest ??= manifestOf(plan.owner, plan.entries.map((e) => e.item), now));
    zip.addReadStreamLazy('manifest.json', { mtime: now, compress: true }, (done) => done(null, Readable.from([`${JSON.stringify(manifestOfNow(), null, 2)}\n`])));
    zip.addReadStreamLazy('index.html', { mtime: now, compress: true }, (done) => done(null, Readable.from([indexHtml(manifestOfNow())])));
    zip.end();
    return zip;
  }

  private async letters(call: CallContext): Promise<Letter[]> {
    const summaries = [];
    let cursor: string | undefined;
    do {
      const page = await this.rpc.call(LettersRpc.list, { limit: LETTERS_PAGE_MAX, ...(cursor ? { cursor } : {}) }, call);
      summaries.push(...page.letters);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    const letters: Letter[] = [];
    for (let i = 0; i < summaries.length; i += LETTER_FETCHES_IN_FLIGHT) {
      letters.push(...(await Promise.all(summaries.slice(i, i + LETTER_FETCHES_IN_FLIGHT).map((s) => this.rpc.call(LettersRpc.get, { id: s.id }, call)))));
    }
    return letters;
  }

  private async mediaItems(call: CallContext): Promise<Recording[]> {
    const items: Recording[] = [];
    let after: string | undefined;
    do {
      const page = await this.rpc.call(VaultMediaRpc.exportList, after ? { after } : {}, call);
      items.push(...page.items);
      after = page.nextCursor ?? undefined;
    } while (after);
    return items;
  }

  private mediaEntry(recording: Recording, call: CallContext): StreamedEntry {
    const type = MEDIA_TYPES[recording.collection];
    const title = recording.collection === 'who-i-am-photo' ? 'Profile photo' : recording.title;
    return {
      kind: 'stream',
      item: {
        path: itemPath(type, { ...recording, title }), type, title, id: recording.id, created_at: recording.created_at, updated_at: null,
        content_type: recording.content_type, size: null, sha256: null, recorded_sha256: recording.blob_hash,
      },
      // The link is asked for when the ZIP reaches the item, so a long export never outlives a link.
      open: async () => {
        const grant = await this.rpc.call(VaultMediaRpc.playbackLink, { id: recording.id }, call);
        // original=1: the file as it was saved (its SHA-256 the recorded one), never the playback copy.
        return this.media.open(`${upstreamPath(grant.url, '/api/media/play/', '/media/')}&original=1`, grant.binding.value, call.meta.requestId);
      },
    };
  }

  private documentEntry(document: CourtDocument, call: CallContext): StreamedEntry {
    return {
      kind: 'stream',
      item: {
        path: itemPath('court-document', { ...document, content_type: document.file_type }), type: 'court-document', title: document.title, id: document.id,
        created_at: document.created_at, updated_at: null, content_type: document.file_type, size: null, sha256: null, recorded_sha256: document.sha256,
      },
      // A download for the export: court-journal records it in the evidence chain like any other.
      open: async () => {
        const grant = await this.rpc.call(CourtJournalRpc.fileLink, { id: document.id, disposition: 'attachment' }, call);
        return this.court.open(upstreamPath(grant.url, '/api/court/files/', '/files/'), grant.binding.value, call.meta.requestId);
      },
    };
  }
}

function textEntry(item: Omit<ExportItem, 'size' | 'sha256' | 'recorded_sha256'>, text: string): TextEntry {
  const bytes = Buffer.from(text, 'utf8');
  return { kind: 'text', item: { ...item, size: bytes.length, sha256: sha256Hex(bytes), recorded_sha256: null }, bytes };
}

/** The service's own path for a signed link the gateway serves: the gateway's prefix swapped for the service's, the query kept. */
export function upstreamPath(url: string, gatewayPrefix: string, servicePrefix: string): string {
  if (!url.startsWith(gatewayPrefix)) throw new Error(`a signed link outside ${gatewayPrefix}`);
  return `${servicePrefix}${url.slice(gatewayPrefix.length)}`;
}

/** Passes the bytes on, counting and hashing them into the item when they end; `failed` hears of a source that breaks off. */
function measured(source: Readable, item: ExportItem, failed: (error: Error) => void): Readable {
  const hash = createHash('sha256');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
    flush(callback) {
      item.size = size;
      item.sha256 = hash.digest('hex');
      callback();
    },
  });
  // An upstream that fails mid-way fails the meter too, which fails the ZIP: never a short file in it.
  pipeline(source, meter, (error) => {
    if (error) failed(error);
  });
  return meter;
}
