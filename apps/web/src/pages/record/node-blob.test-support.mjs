// Node's Blob for the recording-draft spec: fake-indexeddb stores values through structuredClone,
// which keeps Node's Blob but not jsdom's (a browser's IndexedDB keeps its own Blob).
export { Blob as NodeBlob } from 'node:buffer';
