import { stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/**
 * The file under `root` that a URL path names, as a path relative to `root`, or null when there is
 * no such regular file (or the path tries to leave `root`, or names a dotfile).
 */
export async function resolveSpaFile(root: string, urlPath: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.split('/').some((segment) => segment.startsWith('.'))) return null;
  const full = resolve(root, `.${decoded}`);
  const rel = relative(root, full);
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) return null;
  try {
    return (await stat(full)).isFile() ? rel.split(sep).join('/') : null;
  } catch {
    return null;
  }
}
