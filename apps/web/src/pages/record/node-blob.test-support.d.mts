export const NodeBlob: typeof Blob;
