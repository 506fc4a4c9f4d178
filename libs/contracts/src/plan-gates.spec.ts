import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CommunityMessages } from './community.js';
import { ErrorCodes } from './errors.js';
import { MediaMessages } from './media.js';
import {
  canUseFeature, featuresOfTier, isPlanFeature, PLAN_FEATURE_TABLE, PLAN_FEATURES, planNamesWith, planRequiredMessage, PLANS, recordingFeature, tierIncludes,
  type PlanFeature,
} from './plans.js';
import { SUBSCRIPTION_TIERS } from './tiers.js';

// The plans table against what reads it: the pricing cards (derived from it, in the spec's words), the
// services' gates and the SPA's (found in their source: each gate names the feature it checks).

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function sourcesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') found.push(...sourcesUnder(path));
    } else if (/\.tsx?$/.test(entry.name) && !/\.(spec|test-support)\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      found.push(path);
    }
  }
  return found;
}

interface Gate { file: string; feature: string }

// A gate is a call that decides on a plan feature: canUseFeature(user, 'x'), allowsFeature('x'),
// requireFeature(caller, 'x'), tierIncludes(tier, 'x'), a menu entry's `feature: 'x'`, an upgrade
// prompt's feature="x"; recordingFeature(type) checks video and audio saving.
const GATE_CALL = /\b(?:canUseFeature|allowsFeature|requireFeature|tierIncludes)\(([^;\n]*)/g;
const LITERAL = /'([a-z][a-z-]*)'|"([a-z][a-z-]*)"/g;

/** A call's arguments: the text up to the parenthesis that closes it. */
function argumentsOf(rest: string): string {
  let depth = 0;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '(') depth++;
    else if (rest[i] === ')' && depth-- === 0) return rest.slice(0, i);
  }
  return rest;
}

function gatesIn(file: string): Gate[] {
  const text = readFileSync(file, 'utf8');
  const gates: Gate[] = [];
  const add = (feature: string) => gates.push({ file: relative(ROOT, file), feature });
  for (const [, rest] of text.matchAll(GATE_CALL)) {
    const args = argumentsOf(rest!);
    if (args.includes('recordingFeature(')) {
      add(recordingFeature('video'));
      add(recordingFeature('audio'));
    }
    // The feature is the call's first literal (canUseFeature(user, 'x') or requireFeature(caller, 'x', ...)).
    const literal = [...args.matchAll(LITERAL)][0];
    if (literal) add(literal[1] ?? literal[2]!);
  }
  for (const [, feature] of text.matchAll(/\bfeature: '([a-z][a-z-]*)'/g)) add(feature!);
  for (const [, feature] of text.matchAll(/<UpgradePrompt feature="([a-z][a-z-]*)"/g)) add(feature!);
  if (/<UpgradePrompt feature=\{recordingFeature\(/.test(text)) add(recordingFeature('video'));
  return gates;
}

const apps = readdirSync(join(ROOT, 'apps'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
const serverGates = apps.filter((app) => app !== 'web' && app !== 'web-e2e').flatMap((app) => sourcesUnder(join(ROOT, 'apps', app, 'src')).flatMap(gatesIn));
const spaGates = sourcesUnder(join(ROOT, 'apps/web/src')).flatMap(gatesIn);
const enforced = PLAN_FEATURES.filter((f) => PLAN_FEATURE_TABLE[f].enforced === 'app' && PLAN_FEATURE_TABLE[f].from !== 'none');

describe('the plans table', () => {
  it('says what each tier includes, each tier everything of the one before', () => {
    expect(Object.fromEntries(SUBSCRIPTION_TIERS.map((tier) => [tier, featuresOfTier(tier)]))).toEqual({
      none: ['letters', 'who-i-am', 'if-im-gone', 'access-keys', 'court-journal'],
      essentials: ['letters', 'who-i-am', 'if-im-gone', 'access-keys', 'court-journal', 'timeline'],
      pro: ['letters', 'who-i-am', 'if-im-gone', 'access-keys', 'court-journal', 'timeline', 'video-saving', 'audio-saving', 'final-messages', 'community'],
      legacy: [...PLAN_FEATURES],
    });
    for (const [lower, higher] of SUBSCRIPTION_TIERS.slice(1).map((tier, i) => [SUBSCRIPTION_TIERS[i]!, tier] as const)) {
      expect(featuresOfTier(lower).every((f) => tierIncludes(higher, f))).toBe(true);
    }
  });

  it('gives video and audio saving with Pro and Legacy (spec 02, section 9: "Pro … adds video and audio saving"), the timeline from Essentials', () => {
    const user = (tier: (typeof SUBSCRIPTION_TIERS)[number], admin = false) => ({ subscription_tier: tier, ai_admin: admin });
    for (const feature of ['video-saving', 'audio-saving', 'final-messages'] as const) {
      expect(SUBSCRIPTION_TIERS.map((tier) => canUseFeature(user(tier), feature))).toEqual([false, false, true, true]);
    }
    expect(SUBSCRIPTION_TIERS.map((tier) => canUseFeature(user(tier), 'timeline'))).toEqual([false, true, true, true]);
    // Admins have every feature; no user has none.
    expect(PLAN_FEATURES.every((f) => canUseFeature(user('none', true), f))).toBe(true);
    expect(PLAN_FEATURES.some((f) => canUseFeature(null, f))).toBe(false);
    expect([recordingFeature('video'), recordingFeature('audio')]).toEqual(['video-saving', 'audio-saving']);
  });
});

describe('the pricing cards, derived from the table', () => {
  it('keep the spec’s words and prices (spec 02, section 9), with a line for each feature a plan adds', () => {
    expect(PLANS.map((plan) => [plan.name, plan.price, plan.period, plan.features])).toEqual([
      ['Essentials', '£9.99', 'month', ['Letters', 'Who I Am', "If I'm Gone message", 'Access Key request management', 'Timeline']],
      ['Pro', '£20.00', 'month', ['Everything in Essentials', 'Video and audio saving', 'Final messages', 'Parent Circle community']],
      ['Legacy', '£149', 'year', ['Everything in Pro', 'Priority support', '2 bonus Access Key slots']],
    ]);
  });

  it('promise nothing a plan does not include, and name every feature a plan adds on its own card', () => {
    for (const plan of PLANS) {
      for (const line of plan.features) {
        const everything = /^Everything in (.+)$/.exec(line);
        if (everything) {
          const before = PLANS.find((p) => p.name === everything[1]);
          expect(before && featuresOfTier(before.tier).every((f) => tierIncludes(plan.tier, f))).toBe(true);
          continue;
        }
        const rows = PLAN_FEATURES.filter((f) => PLAN_FEATURE_TABLE[f].pricing === line);
        expect(rows.length).toBeGreaterThan(0);
        for (const feature of rows) expect([line, feature, tierIncludes(plan.tier, feature)]).toEqual([line, feature, true]);
      }
    }
    for (const feature of PLAN_FEATURES.filter((f) => PLAN_FEATURE_TABLE[f].from !== 'none')) {
      const row = PLAN_FEATURE_TABLE[feature];
      expect([feature, row.listedOn]).toEqual([feature, row.from]);
      expect(PLANS.find((p) => p.tier === row.from)?.features).toContain(row.pricing);
    }
  });
});

describe('the gates read the table', () => {
  it('finds the gates in the services and in the SPA', () => {
    expect(serverGates.length).toBeGreaterThanOrEqual(5);
    expect(spaGates.length).toBeGreaterThanOrEqual(5);
  });

  it('every gate checks a feature of the table', () => {
    const unknown = [...serverGates, ...spaGates].filter((gate) => !isPlanFeature(gate.feature));
    expect(unknown).toEqual([]);
  });

  it('every feature a plan gates is refused by a service and shown as gated by the SPA', () => {
    const missing = enforced.flatMap((feature) => [
      ...(serverGates.some((g) => g.feature === feature) ? [] : [`${feature}: no server gate`]),
      ...(spaGates.some((g) => g.feature === feature) ? [] : [`${feature}: no SPA gate`]),
    ]);
    expect(missing).toEqual([]);
  });

  it('the server gates are where the spec puts them: vault-media (recordings), timeline, letters and vault-media (community)', () => {
    const where = (feature: PlanFeature) => [...new Set(serverGates.filter((g) => g.feature === feature).map((g) => g.file.split('/')[1]))].sort();
    expect(where('video-saving')).toEqual(['vault-media']);
    expect(where('audio-saving')).toEqual(['vault-media']);
    expect(where('final-messages')).toEqual(['vault-media']);
    expect(where('timeline')).toEqual(['timeline']);
    expect(where('community')).toEqual(['letters', 'vault-media']);
  });

  it('a refusal names exactly the plans that include the feature', () => {
    expect(planRequiredMessage('video-saving')).toBe('Saving video messages is part of the Pro and Legacy plans.');
    expect(planRequiredMessage('audio-saving')).toBe('Saving audio messages is part of the Pro and Legacy plans.');
    expect(planRequiredMessage('timeline')).toBe('The timeline is part of the Essentials, Pro and Legacy plans.');
    expect(MediaMessages.finalMessagesPlanRequired).toBe('Final messages are part of the Pro and Legacy plans.');
    // The community's words are the spec's own (spec 02, section 6): they must name the table's plans.
    expect(planNamesWith('community')).toEqual(['Pro', 'Legacy']);
    expect(CommunityMessages.upgrade).toBe('This feature is available to Vault Pro & Legacy members only. Upgrade to unlock.');
    // The fallback promises no feature at all.
    expect(ErrorCodes.UPGRADE_REQUIRED.message).not.toMatch(/timeline|audio|video/i);
  });

  it('a save names the timeline only for a plan that includes it', () => {
    expect(MediaMessages.savedToVaultAndTimeline).toBe('Your message has been saved to your Vault & Timeline.');
    expect(MediaMessages.savedToVault).not.toMatch(/timeline/i);
  });
});
