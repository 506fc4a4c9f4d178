import { createHash } from 'node:crypto';

/** A value the canonical encoding accepts: what evidence entries and heads are made of. */
export type CanonicalValue = string | number | boolean | null | CanonicalValue[] | { [key: string]: CanonicalValue };

/**
 * The canonical bytes of a value: RFC 8785 (JSON Canonicalization Scheme) restricted to strings,
 * safe integers, booleans, null, arrays and objects. Object keys are sorted by UTF-16 code units,
 * there is no whitespace, strings are escaped as ECMAScript's JSON.stringify does (", \ and control
 * characters only; everything else is written as UTF-8). Floats are refused so that no tool can
 * print a number differently. `jq -cjS` gives the same bytes for such values (control characters
 * and U+007F aside), which is how a court can recompute an entry's hash by hand.
 */
export function canonicalJson(value: CanonicalValue): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isSafeInteger(value)) throw new TypeError(`canonical JSON holds integers only, not ${value}`);
      return Object.is(value, -0) ? '0' : String(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
      const keys = Object.keys(value).sort();
      return `{${keys.map((k) => {
        const v = value[k];
        if (v === undefined) throw new TypeError(`canonical JSON has no undefined (key "${k}")`);
        return `${JSON.stringify(k)}:${canonicalJson(v)}`;
      }).join(',')}}`;
    }
    default:
      throw new TypeError(`canonical JSON cannot hold a ${typeof value}`);
  }
}

export function canonicalBytes(value: CanonicalValue): Buffer {
  return Buffer.from(canonicalJson(value), 'utf8');
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export const SHA256_HEX_PATTERN = /^[0-9a-f]{64}$/;
/** The prevHash of the first entry, and the headHash of an empty chain. */
export const ZERO_HASH = '0'.repeat(64);
