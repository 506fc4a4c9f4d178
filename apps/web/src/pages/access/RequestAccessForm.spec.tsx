import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AccessMessages } from '@lv/contracts';
import { RequestAccessForm } from './RequestAccessForm.js';

// The request form's submission id: what a family member's retry sends, with the gateway a stand-in
// behind fetch that loses an answer when told to.

const OWNER = '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let sent: { submission_id: string; message: string }[];
let loseNextAnswer: boolean;

beforeEach(() => {
  sent = [];
  loseNextAnswer = false;
  (globalThis as { fetch: unknown }).fetch = jest.fn(async (_input: string, init: RequestInit = {}) => {
    sent.push(JSON.parse(String(init.body)) as (typeof sent)[number]);
    if (loseNextAnswer) {
      loseNextAnswer = false;
      throw new TypeError('Failed to fetch');
    }
    return new Response(JSON.stringify({ success: true }), { status: 201, headers: { 'content-type': 'application/json' } });
  });
});
afterEach(cleanup);

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const fill = (reason: string) => {
  type('Your Email', 'sam@example.com');
  type('Your Relationship', 'Son');
  type('Reason for Access', reason);
};
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Submit Access Request' }));

describe('the access request form’s submission id', () => {
  it('is sent again with a retry of the same form, and drawn anew after a success or a change', async () => {
    render(<RequestAccessForm ownerId={OWNER} signedInEmail={null} token={null} />);
    fill('Please');
    loseNextAnswer = true;
    submit();
    expect((await screen.findByRole('alert')).textContent).toContain('could not be reached');
    submit();
    expect((await screen.findByRole('status')).textContent).toContain(AccessMessages.submitted);
    expect(sent).toHaveLength(2);
    expect(sent[0]!.submission_id).toMatch(UUID_V4);
    expect(sent[1]!.submission_id).toBe(sent[0]!.submission_id);

    // The next form after a success is another submission; so is a form changed after a lost answer.
    fill('Please, again');
    loseNextAnswer = true;
    submit();
    expect((await screen.findByRole('alert')).textContent).toContain('could not be reached');
    type('Reason for Access', 'Please, once more');
    submit();
    await waitFor(() => expect(sent).toHaveLength(4));
    const ids = sent.map((s) => s.submission_id);
    expect([ids[2] === ids[0], ids[3] === ids[2]]).toEqual([false, false]);
    expect(sent.map((s) => s.message)).toEqual(['Please', 'Please', 'Please, again', 'Please, once more']);
  });
});
