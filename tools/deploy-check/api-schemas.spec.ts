// Every object the deployment renders is checked against the Kubernetes API's own schemas (the OpenAPI
// definitions kubernetes-models ships, and the Prometheus operator's CRD schemas for the monitoring
// objects), so a typo in a field name or a wrong type fails here, not at `kubectl apply` in production.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface RenderedObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec?: Record<string, unknown>;
}

interface ModelClass {
  new (data: object): { validate(): void };
}

/** The rendered YAML of a kustomization (kubectl's built-in Kustomize), or of a plain manifest. */
function objectsOf(source: { kustomize: string } | { file: string }): RenderedObject[] {
  const text = 'kustomize' in source
    ? execFileSync('kubectl', ['kustomize', join(root, source.kustomize)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    : readFileSync(join(root, source.file), 'utf8');
  return YAML.parseAllDocuments(text).map((document) => document.toJS() as RenderedObject | null).filter((object): object is RenderedObject => object !== null);
}

/** The model of an apiVersion and kind: core (`v1`), a built-in group (`apps/v1`) or the Prometheus operator's. */
async function modelOf({ apiVersion, kind }: RenderedObject): Promise<ModelClass> {
  const path = apiVersion.startsWith('monitoring.coreos.com/')
    ? `@kubernetes-models/prometheus-operator/${apiVersion}/${kind}`
    : `kubernetes-models/${apiVersion}/${kind}`;
  const module = (await import(path)) as Record<string, ModelClass | undefined>;
  const model = module[kind];
  if (!model) throw new Error(`no schema for ${apiVersion} ${kind} (${path})`);
  return model;
}

/** Why an object is refused by its schema, or null when it validates. */
async function schemaRefusal(object: RenderedObject): Promise<string | null> {
  const Model = await modelOf(object);
  try {
    new Model(object).validate();
    return null;
  } catch (error) {
    return `${object.kind}/${object.metadata.name}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

const overlays = readdirSync(join(root, 'deploy', 'overlays'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => `deploy/overlays/${entry.name}`);
const sources: Array<[string, { kustomize: string } | { file: string }]> = [
  ['deploy/k8s', { kustomize: 'deploy/k8s' }],
  ...overlays.map((dir): [string, { kustomize: string }] => [dir, { kustomize: dir }]),
  ['deploy/monitoring', { kustomize: 'deploy/monitoring' }],
  ['deploy/k8s/secrets.example.yaml', { file: 'deploy/k8s/secrets.example.yaml' }],
];

describe('rendered Kubernetes objects against the API schemas', () => {
  it.each(sources)('%s: every object validates', async (_name, source) => {
    const objects = objectsOf(source);
    expect(objects.length).toBeGreaterThan(0);
    // One at a time: Jest's ESM loader cannot link the same schema module for two imports at once.
    const refusals: string[] = [];
    for (const object of objects) {
      const refusal = await schemaRefusal(object);
      if (refusal) refusals.push(refusal);
    }
    expect(refusals).toEqual([]);
  });

  it('refuses what the API server would: a wrong type, an unknown kind', async () => {
    const [deployment] = objectsOf({ kustomize: 'deploy/k8s' }).filter((object) => object.kind === 'Deployment');
    const broken = { ...deployment!, spec: { ...deployment!.spec, replicas: 'two' } };
    expect(await schemaRefusal(broken)).toMatch(/replicas/);
    await expect(modelOf({ apiVersion: 'apps/v1', kind: 'Deploymnet', metadata: { name: 'typo' } })).rejects.toThrow(/no schema for apps\/v1 Deploymnet|Cannot find module/);
  });
});
