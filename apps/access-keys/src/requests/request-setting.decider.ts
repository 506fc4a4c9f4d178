import type { Decider } from '@lv/platform/event-store';

/** The owner's switch for his request link: one stream per owner, `request-setting-{ownerId}`. Nothing personal. */
export type RequestSettingEvent = { type: 'RequestSettingChanged'; data: { ownerId: string; open: boolean; changedAt: string } };

/** Open until the owner first closes it (no stream = open). */
export interface RequestSettingState {
  open: boolean;
}

export type RequestSettingCommand = { type: 'SetRequestsOpen'; ownerId: string; open: boolean; now: string };

export const REQUEST_SETTING_STREAM_TYPE = 'request-setting';
export const requestSettingStreamId = (ownerId: string) => `request-setting-${ownerId}`;

export const requestSettingDecider: Decider<RequestSettingState, RequestSettingCommand, RequestSettingEvent> = {
  initialState: () => ({ open: true }),

  decide(command, state) {
    // The same choice again (a retry, a double click) records nothing. The stream is the caller's own.
    if (command.open === state.open) return [];
    return [{ type: 'RequestSettingChanged', data: { ownerId: command.ownerId, open: command.open, changedAt: command.now } }];
  },

  evolve(_state, event) {
    return { open: event.data.open };
  },
};
