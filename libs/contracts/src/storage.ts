/**
 * Object storage buckets, by their exact (legacy) names from the original application. The services
 * that own the bytes name their buckets from here; the platform's storage client knows none of them.
 */
export const Buckets = {
  vaultmedia: 'vaultmedia',
  documents: 'documents',
  courtjournals: 'courtjournals',
  whoIAm: 'who-i-am',
  recordings: 'recordings',
  vaultMedia: 'vault-media',
  parentMusicLibrary: 'parent-music-library',
} as const;
export type BucketName = (typeof Buckets)[keyof typeof Buckets];
export const ALL_BUCKETS: readonly BucketName[] = Object.values(Buckets);
