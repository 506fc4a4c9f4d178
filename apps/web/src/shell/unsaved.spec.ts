import { beforeEach, describe, expect, it } from '@jest/globals';
import { detectUnsavedChanges, findDrafts, hasFilledFields, removeDrafts } from './unsaved.js';

describe('unsaved detection', () => {
  beforeEach(() => {
    localStorage.clear();
    document.body.innerHTML = '';
  });

  const detect = (recordingActive = false) => detectUnsavedChanges({ storage: localStorage, recordingActive, root: document });

  it('is false on a quiet page', () => {
    expect(detect()).toBe(false);
  });

  it.each(['unsaved_draft', 'unsaved_text_draft', 'unsaved_letter_draft'])('is true when %s exists', (key) => {
    localStorage.setItem(key, '');
    expect(detect()).toBe(true);
  });

  it('is true while a recording is active', () => {
    expect(detect(true)).toBe(true);
  });

  it('is true when an input or textarea holds a value', () => {
    document.body.innerHTML = '<input type="text" id="a"><textarea id="b"></textarea>';
    expect(detect()).toBe(false);
    (document.getElementById('a') as HTMLInputElement).value = 'Dear Ellie';
    expect(detect()).toBe(true);
    (document.getElementById('a') as HTMLInputElement).value = '';
    (document.getElementById('b') as HTMLTextAreaElement).value = 'Thinking of you';
    expect(detect()).toBe(true);
  });

  it('ignores blank values, non-text inputs, opted-out fields and values that are already saved', () => {
    document.body.innerHTML = `
      <input type="text" value="   ">
      <input type="checkbox" checked>
      <input type="hidden" value="token">
      <input type="submit" value="Send">
      <div data-unsaved-ignore><input type="email" value="sam@example.com"></div>
      <textarea data-saved-value="kept">kept</textarea>`;
    expect(hasFilledFields(document)).toBe(false);
    (document.querySelector('textarea') as HTMLTextAreaElement).value = 'kept, and more';
    expect(hasFilledFields(document)).toBe(true);
  });

  it('lists and removes drafts in the dialog order', () => {
    localStorage.setItem('unsaved_letter_draft', '{}');
    localStorage.setItem('unsaved_draft', '{}');
    localStorage.setItem('other', '1');
    expect(findDrafts(localStorage)).toEqual(['unsaved_draft', 'unsaved_letter_draft']);
    removeDrafts(localStorage);
    expect(findDrafts(localStorage)).toEqual([]);
    expect(localStorage.getItem('other')).toBe('1');
  });

  it('counts only the signed-in owner’s drafts: another owner’s saved draft on the same browser is not his (issue 29)', () => {
    localStorage.setItem('unsaved_letter_draft', JSON.stringify({ title: 'To Sam', content: 'Hello', owner: 'first-owner' }));
    localStorage.setItem('unsaved_draft', JSON.stringify({ title: 'A clip', owner: 'second-owner' }));
    expect(findDrafts(localStorage, 'second-owner')).toEqual(['unsaved_draft']);
    expect(detectUnsavedChanges({ storage: localStorage, owner: 'third-owner', recordingActive: false, root: undefined })).toBe(false);
    expect(detectUnsavedChanges({ storage: localStorage, owner: 'first-owner', recordingActive: false, root: undefined })).toBe(true);
    // "Sign Out Without Saving" removes his own draft and leaves the first owner's.
    removeDrafts(localStorage, 'second-owner');
    expect(localStorage.getItem('unsaved_draft')).toBeNull();
    expect(findDrafts(localStorage, 'first-owner')).toEqual(['unsaved_letter_draft']);
  });
});
