import { createHash } from 'node:crypto';

// "Export Vault Data" (spec 02, Settings): what the ZIP holds and how it is laid out. Pure: the
// controller gathers the owner's items from the services and streams the bytes; this decides names,
// the manifest and the offline index.

export const EXPORT_FORMAT = 'legacy-vault-export/1';

export type ExportItemType =
  | 'profile' | 'notification-preferences' | 'letter' | 'reflection' | 'who-i-am-portrait' | 'who-i-am-photo' | 'who-i-am-media'
  | 'recording' | 'final-message' | 'court-document' | 'emergency-contacts' | 'delivery-settings';

/** One file of the export, as manifest.json lists it. */
export interface ExportItem {
  path: string;
  type: ExportItemType;
  title: string;
  /** The item's id in its service, when it has one. */
  id: string | null;
  created_at: string | null;
  updated_at: string | null;
  content_type: string;
  /** Bytes written into the ZIP (known after the file is streamed). */
  size: number | null;
  /** SHA-256 of the bytes written (hex), computed while they were streamed. */
  sha256: string | null;
  /** The SHA-256 the service recorded when the file was saved; null when it keeps none (letters, settings). */
  recorded_sha256: string | null;
}

export interface ExportManifest {
  format: typeof EXPORT_FORMAT;
  exported_at: string;
  owner: { id: string; email: string; full_name: string | null };
  items: ExportItem[];
  /** Files whose bytes did not hash to what the service recorded at upload (should be none). */
  mismatches: string[];
}

/** Which folder each kind of item goes in. */
const FOLDERS: Record<ExportItemType, string> = {
  profile: '', 'notification-preferences': '', reflection: '', letter: 'letters', 'who-i-am-portrait': 'who-i-am', 'who-i-am-photo': 'who-i-am/photo',
  'who-i-am-media': 'who-i-am/media', recording: 'recordings', 'final-message': 'final-messages', 'court-document': 'court-documents',
  'emergency-contacts': 'if-im-not-there', 'delivery-settings': 'if-im-not-there',
};

const EXTENSIONS: Record<string, string> = {
  'video/webm': 'webm', 'audio/webm': 'webm', 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp', 'video/mp4': 'mp4',
  'video/quicktime': 'mov', 'audio/mpeg': 'mp3', 'audio/mp4': 'm4a', 'audio/x-m4a': 'm4a', 'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/ogg': 'ogg',
  'application/pdf': 'pdf', 'text/plain': 'txt', 'application/json': 'json', 'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
};

/** A file name piece from a person's title: letters, digits, dashes; never a path, never empty. */
export function slug(text: string, max = 60): string {
  const cleaned = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return cleaned.slice(0, max).replace(/-+$/, '') || 'untitled';
}

export function extensionOf(contentType: string, fileName?: string): string {
  const base = contentType.split(';', 1)[0]!.trim().toLowerCase();
  const fromName = fileName && /\.([A-Za-z0-9]{1,8})$/.exec(fileName)?.[1];
  return EXTENSIONS[base] ?? (fromName ? fromName.toLowerCase() : 'bin');
}

/**
 * The path of an item in the ZIP: its folder, the day it was made, its title and the start of its id
 * (so two items with one title never collide), and an extension from its type.
 */
export function itemPath(type: ExportItemType, item: { title: string; id: string; created_at: string | null; content_type: string; file_name?: string }): string {
  const day = item.created_at ? item.created_at.slice(0, 10) : 'undated';
  const name = `${day}-${slug(item.file_name ? item.file_name.replace(/\.[^.]*$/, '') : item.title)}-${item.id.slice(0, 8)}.${extensionOf(item.content_type, item.file_name)}`;
  return FOLDERS[type] ? `${FOLDERS[type]}/${name}` : name;
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A letter as a plain text file: its title, its dates, a blank line, its words as written. */
export function letterText(letter: { title: string; content: string; created_at: string; updated_at: string }): string {
  return `${letter.title}\nWritten ${letter.created_at}${letter.updated_at !== letter.created_at ? `, last revised ${letter.updated_at}` : ''}\n\n${letter.content}\n`;
}

export function manifestOf(owner: ExportManifest['owner'], items: readonly ExportItem[], exportedAt: Date): ExportManifest {
  return {
    format: EXPORT_FORMAT,
    exported_at: exportedAt.toISOString(),
    owner,
    items: [...items],
    mismatches: items.filter((i) => i.recorded_sha256 && i.sha256 && i.recorded_sha256 !== i.sha256).map((i) => i.path),
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
/** A ZIP path as a relative link: each segment escaped, so a title can never become markup or leave the folder. */
const hrefOf = (path: string) => path.split('/').map(encodeURIComponent).join('/');

const SECTIONS: { title: string; types: ExportItemType[] }[] = [
  { title: 'Letters', types: ['letter'] },
  { title: 'Recordings', types: ['recording'] },
  { title: 'Final messages', types: ['final-message'] },
  { title: 'Who I Am', types: ['who-i-am-portrait', 'who-i-am-photo', 'who-i-am-media'] },
  { title: 'Thoughts & Feelings', types: ['reflection'] },
  { title: 'Court documents', types: ['court-document'] },
  { title: "If I'm Not There", types: ['emergency-contacts', 'delivery-settings'] },
  { title: 'Account', types: ['profile', 'notification-preferences'] },
];

const formatSize = (bytes: number | null) => (bytes === null ? '' : bytes < 1024 ? `${bytes} B` : bytes < 1024 ** 2 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 ** 2).toFixed(1)} MB`);

/**
 * index.html: a page that browses the export offline. Plain HTML and inline CSS, no script, nothing
 * fetched: it opens from the unzipped folder with every link relative.
 */
export function indexHtml(manifest: ExportManifest): string {
  const sections = SECTIONS.map(({ title, types }) => {
    const items = manifest.items.filter((item) => types.includes(item.type));
    const rows = items.length
      ? items.map((item) => `<tr><td><a href="${hrefOf(item.path)}">${escapeHtml(item.title)}</a></td><td>${escapeHtml(item.created_at?.slice(0, 10) ?? '')}</td><td>${formatSize(item.size)}</td><td><code>${item.sha256 ?? ''}</code></td></tr>`).join('\n')
      : '<tr><td colspan="4">Nothing saved here.</td></tr>';
    return `<section><h2>${escapeHtml(title)} (${items.length})</h2>
<table><thead><tr><th scope="col">Title</th><th scope="col">Date</th><th scope="col">Size</th><th scope="col">SHA-256</th></tr></thead>
<tbody>
${rows}
</tbody></table></section>`;
  }).join('\n');
  const who = escapeHtml(manifest.owner.full_name ?? manifest.owner.email);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'">
<title>Legacy Vault export of ${who}</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1f2937}table{border-collapse:collapse;width:100%;margin-bottom:2rem}th,td{text-align:left;padding:.4rem;border-bottom:1px solid #e5e7eb;vertical-align:top}code{font-size:.7rem;word-break:break-all}</style>
</head><body>
<h1>Legacy Vault export of ${who}</h1>
<p>Exported ${escapeHtml(manifest.exported_at)}. Every file is in this folder; <a href="manifest.json">manifest.json</a> lists each with its SHA-256.</p>
${manifest.mismatches.length ? `<p><strong>These files did not match the fingerprint recorded when they were saved:</strong> ${manifest.mismatches.map(escapeHtml).join(', ')}</p>` : ''}
${sections}
</body></html>
`;
}
