// The Kubernetes overlays as kubectl renders them (its built-in Kustomize): deploy/k8s and each overlay
// under deploy/overlays build, hold the same objects, and write the site's host name in one place
// (ConfigMap lv-site), from which the Ingress, its certificate and every PUBLIC_URL take it.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
type Json = any; // rendered YAML

const overlays = readdirSync(join(root, 'deploy', 'overlays'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => `deploy/overlays/${e.name}`);

function render(dir: string): Json[] {
  const out = execFileSync('kubectl', ['kustomize', join(root, dir)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return YAML.parseAllDocuments(out).map((d) => d.toJS()).filter(Boolean);
}

const identity = (m: Json) => `${m.kind}/${m.metadata.name}`;

/** Every place a rendering names the public host: lv-site, the Ingress's rules and TLS hosts, each PUBLIC_URL's host. */
function publicHosts(objects: Json[]): { site: string; used: Record<string, string> } {
  const site = objects.find((m) => m.kind === 'ConfigMap' && m.metadata.name === 'lv-site')?.data?.PUBLIC_HOST;
  const used: Record<string, string> = {};
  for (const m of objects) {
    if (m.kind === 'Ingress') {
      (m.spec.rules ?? []).forEach((r: Json, i: number) => { used[`${identity(m)} rules.${i}.host`] = r.host; });
      (m.spec.tls ?? []).forEach((t: Json, i: number) => (t.hosts ?? []).forEach((h: string, j: number) => { used[`${identity(m)} tls.${i}.hosts.${j}`] = h; }));
    }
    for (const c of m.spec?.template?.spec?.containers ?? []) {
      for (const e of c.env ?? []) if (e.name === 'PUBLIC_URL') used[`${identity(m)} ${c.name} PUBLIC_URL`] = new URL(e.value).hostname;
    }
  }
  return { site, used };
}

describe('deploy overlays (kubectl kustomize)', () => {
  const base = render('deploy/k8s');

  it('has a development and a production overlay', () => {
    expect(overlays).toEqual(expect.arrayContaining(['deploy/overlays/development', 'deploy/overlays/production']));
  });

  it.each(['deploy/k8s', ...overlays])('%s names the public host once, and the Ingress, its certificate and PUBLIC_URL follow it', (dir) => {
    const { site, used } = publicHosts(dir === 'deploy/k8s' ? base : render(dir));
    expect(site).toMatch(/^[a-z0-9.-]+$/);
    expect(Object.keys(used).length).toBeGreaterThanOrEqual(4); // the Ingress's rule and TLS host, notifications' and billing's PUBLIC_URL
    expect(Object.entries(used).filter(([, host]) => host !== site)).toEqual([]);
  });

  it.each(overlays)('%s renders the objects of deploy/k8s, on a host of its own', (dir) => {
    const objects = render(dir);
    expect(objects.map(identity).sort()).toEqual(base.map(identity).sort());
    expect(publicHosts(objects).site).not.toBe(publicHosts(base).site);
  });
});
