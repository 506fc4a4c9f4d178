import type { DeliveryTiming } from '@lv/contracts';
import type { Decider } from '@lv/platform/event-store';

/** The trustee and the final thoughts: sealed under the settings stream's key, on every save. */
export interface DeliveryPersonal {
  trusteeName: string;
  trusteeEmail: string;
  finalThoughts: string;
}

export interface DeliveryChoices {
  timing: DeliveryTiming;
  requireLegalVerification: boolean;
  allowPreview: boolean;
  notifyTrustee: boolean;
}

/** An owner's delivery settings: one stream per owner, `delivery-settings-{ownerId}`, saved as a whole. */
export type DeliverySettingsEvent = {
  type: 'DeliverySettingsSaved';
  data: { ownerId: string; savedAt: string; personal: DeliveryPersonal | null } & DeliveryChoices;
};

export interface DeliverySettingsState {
  saved: (DeliveryChoices & { personal: DeliveryPersonal | null }) | null;
}

export type DeliverySettingsCommand = { type: 'SaveDeliverySettings'; ownerId: string; choices: DeliveryChoices; personal: DeliveryPersonal; now: string };

export const DELIVERY_SETTINGS_STREAM_TYPE = 'delivery-settings';
export const deliverySettingsStreamId = (ownerId: string) => `delivery-settings-${ownerId}`;

const same = (a: DeliverySettingsState['saved'], choices: DeliveryChoices, personal: DeliveryPersonal) =>
  a !== null && JSON.stringify([a.timing, a.requireLegalVerification, a.allowPreview, a.notifyTrustee, a.personal]) ===
    JSON.stringify([choices.timing, choices.requireLegalVerification, choices.allowPreview, choices.notifyTrustee, personal]);

export const deliverySettingsDecider: Decider<DeliverySettingsState, DeliverySettingsCommand, DeliverySettingsEvent> = {
  initialState: () => ({ saved: null }),

  decide(command, state) {
    // The same settings again (a retry, a double click) record nothing. The stream is the caller's own.
    if (same(state.saved, command.choices, command.personal)) return [];
    return [{ type: 'DeliverySettingsSaved', data: { ownerId: command.ownerId, ...command.choices, savedAt: command.now, personal: command.personal } }];
  },

  evolve(_state, event) {
    const { timing, requireLegalVerification, allowPreview, notifyTrustee, personal } = event.data;
    return { saved: { timing, requireLegalVerification, allowPreview, notifyTrustee, personal } };
  },
};
