#!/usr/bin/env node
// The object store's transfer floor for bench:backup, in a process of its own: `get <bucket> <dir>` reads
// every object of a bucket into files, `put <bucket> <dir>` writes a folder's files as objects into a
// bucket (made when missing). Four at a time, as the backup and the restore do; nothing hashed, listed
// in a manifest or checked: what moving the bytes through this S3 server costs and no more.
// S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY, S3_SECRET_KEY as the services take them.
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'minio';

const [mode, bucket, dir] = process.argv.slice(2);
if (!['get', 'put'].includes(mode) || !bucket || !dir) {
  console.error('usage: s3-transfer-floor.mjs get|put <bucket> <dir>');
  process.exit(2);
}
const endpoint = new URL(process.env.S3_ENDPOINT);
const client = new Client({
  endPoint: endpoint.hostname, port: Number(endpoint.port), useSSL: endpoint.protocol === 'https:',
  accessKey: process.env.S3_ACCESS_KEY, secretKey: process.env.S3_SECRET_KEY, region: process.env.S3_REGION, pathStyle: true,
});

async function eachFourAtATime(items, work) {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(4, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  }));
}

if (mode === 'get') {
  mkdirSync(dir, { recursive: true });
  const keys = [];
  for await (const item of client.listObjectsV2(bucket, '', true)) if (item.name) keys.push(item.name);
  await eachFourAtATime(keys, (key) => client.fGetObject(bucket, key, join(dir, encodeURIComponent(key))));
  console.log(JSON.stringify({ objects: keys.length }));
} else {
  if (!(await client.bucketExists(bucket))) await client.makeBucket(bucket, process.env.S3_REGION);
  const files = readdirSync(dir);
  await eachFourAtATime(files, (file) => client.fPutObject(bucket, file, join(dir, file)));
  console.log(JSON.stringify({ objects: files.length }));
}
