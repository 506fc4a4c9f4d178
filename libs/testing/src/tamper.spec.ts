import { alterMiddleCharacter } from './tamper.js';

describe('alterMiddleCharacter', () => {
  it('changes exactly the middle character, also when it is an A', () => {
    for (const text of ['abcdefg', 'abcAefg', 'xy']) {
      const altered = alterMiddleCharacter(text);
      expect(altered).toHaveLength(text.length);
      const changed = [...text].map((c, i) => (c === altered[i] ? -1 : i)).filter((i) => i >= 0);
      expect(changed).toEqual([Math.floor(text.length / 2)]);
    }
    expect(() => alterMiddleCharacter('')).toThrow('nothing to alter');
  });
});
