import { TIMELINE_SOURCE_SECTIONS, TIMELINE_SOURCES, timelineSourcesFor } from './timeline.js';

describe('which timeline entries a viewer sees', () => {
  it('names a section for every source: recordings are the timeline’s, letters and court documents their own sections’', () => {
    expect(Object.keys(TIMELINE_SOURCE_SECTIONS).sort()).toEqual([...TIMELINE_SOURCES].sort());
    expect(TIMELINE_SOURCE_SECTIONS).toEqual({ 'vault-media': 'timeline', letters: 'letters', 'court-journal': 'court-journal' });
  });

  it('shows a key limited to the timeline its recordings only', () => {
    expect(timelineSourcesFor(['timeline'])).toEqual(['vault-media']);
    expect(timelineSourcesFor(['timeline', 'who-i-am', 'if-im-not-there'])).toEqual(['vault-media']);
  });

  it('adds letters and court documents for a key that also opens their sections', () => {
    expect(timelineSourcesFor(['timeline', 'letters'])).toEqual(['vault-media', 'letters']);
    expect(timelineSourcesFor(['court-journal', 'timeline'])).toEqual(['vault-media', 'court-journal']);
    expect(timelineSourcesFor(['timeline', 'letters', 'court-journal'])).toEqual([...TIMELINE_SOURCES]);
  });

  it('shows nothing to a key without the timeline, whatever else it opens', () => {
    expect(timelineSourcesFor(['letters', 'court-journal'])).toEqual([]);
    expect(timelineSourcesFor([])).toEqual([]);
  });
});
