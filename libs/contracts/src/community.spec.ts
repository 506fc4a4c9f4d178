import { allowsFeature, canUseFeature } from './plans.js';
import { SUBSCRIPTION_TIERS } from './tiers.js';
import { MUSIC_AUDIO_TYPES, musicCategoryOf, musicExtensionOf, musicTitleOf } from './community.js';

describe('the music library’s file names (spec 9)', () => {
  it('takes mp3, wav and m4a only, whatever the case of the extension', () => {
    expect(['a.mp3', 'b.WAV', 'c.m4a', ' d.Mp3 '].map(musicExtensionOf)).toEqual(['mp3', 'wav', 'm4a', 'mp3']);
    expect(['a.ogg', 'b.webm', 'c.mp3.exe', 'mp3', 'c.', ''].map(musicExtensionOf)).toEqual([null, null, null, null, null, null]);
    expect(MUSIC_AUDIO_TYPES).toEqual({ mp3: 'audio/mpeg', wav: 'audio/wav', m4a: 'audio/mp4' });
  });

  it('gives the category from the prefix: motivation, meditation, voice, else other', () => {
    expect(musicCategoryOf('motivation-rise-up.mp3')).toBe('motivation');
    expect(musicCategoryOf('Meditation_Evening.wav')).toBe('meditation');
    expect(musicCategoryOf('voiceNote1.m4a')).toBe('voice');
    expect(musicCategoryOf('lullaby.mp3')).toBe('other');
    // A prefix, not anywhere in the name.
    expect(musicCategoryOf('my-motivation.mp3')).toBe('other');
  });

  it('gives a title from the name: no extension, no category prefix, separators as spaces, words capitalised', () => {
    expect(musicTitleOf('motivation-rise-up.mp3')).toBe('Rise Up');
    expect(musicTitleOf('meditation_evening__calm.wav')).toBe('Evening Calm');
    expect(musicTitleOf('Lullaby for Ella.m4a')).toBe('Lullaby For Ella');
    expect(musicTitleOf('voice.mp3')).toBe('Voice');
    expect(musicTitleOf('motivation.mp3')).toBe('Motivation');
    expect(musicTitleOf('élan-vital.mp3')).toBe('Élan Vital');
  });
});

describe('the community gate (spec 6)', () => {
  it('is Pro and Legacy, and admins', () => {
    const user = (tier: 'none' | 'essentials' | 'pro' | 'legacy', admin = false) => ({ subscription_tier: tier, ai_admin: admin });
    expect(['none', 'essentials', 'pro', 'legacy'].map((tier) => canUseFeature(user(tier as 'none'), 'community'))).toEqual([false, false, true, true]);
    expect(canUseFeature(user('none', true), 'community')).toBe(true);
    expect(canUseFeature(null, 'community')).toBe(false);
  });

  it('reads the same from a verified account (the rule services pass to requireFeature)', () => {
    expect(SUBSCRIPTION_TIERS.map((tier) => allowsFeature('community')({ tier, isAdmin: false }))).toEqual(SUBSCRIPTION_TIERS.map((tier) => canUseFeature({ subscription_tier: tier, ai_admin: false }, 'community')));
    expect(allowsFeature('community')({ tier: 'none', isAdmin: true })).toBe(true);
  });
});
