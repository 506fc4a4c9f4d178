import { Body, Controller, Delete, Get, Inject, Param, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiParam, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import {
  AccessKeysRpc, addContactBodySchema, addTrusteeBodySchema, TRUSTEES_MAX, TrusteeMessages, type Trustee, checkInLinkBodySchema, ErrorCodes, IfImNotThereMessages, INACTIVITY_PERIODS, saveDeliverySettingsBodySchema, saveInactivityBodySchema, setContactKeyBodySchema, type CheckInReply, type ContactKeyReply, type DeliverySettings, type DeliveryCheck, type DeliveryView, type EmergencyContact, type InactivityWatch,
} from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import { idParam, parseAccessBody } from '../access/access-body.js';
import { Public } from '../http/public.decorator.js';
import { Route, RouteBody, RouteErrors } from '../http/route.js';
import { CallCtx } from '../http/request-context.js';
import { RPC_CLIENT } from '../infra/tokens.js';

/**
 * If I'm Not There (/api/if-im-not-there): the owner's emergency contacts, the access key each may be
 * given, and the vault delivery settings, kept by access-keys (which issues the keys). Every route
 * takes the owner's access token; access-keys reads and writes the verified caller's own only.
 * Bodies are checked here with the contracts' schemas (the page's words as the message) and again there.
 */
@ApiTags('if-im-not-there')
@ApiBearerAuth()
@RouteErrors({
  401: 'No valid access token.',
  503: 'access-keys is unavailable.',
})
@Controller('if-im-not-there')
export class IfImNotThereController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  @Get('contacts')
  @Route({ reply: AccessKeysRpc.listContacts.reply, description: 'The caller’s emergency contacts, in the order they were added.' })
  async contacts(@CallCtx() call: CallContext): Promise<EmergencyContact[]> {
    return this.rpc.call(AccessKeysRpc.listContacts, {}, call);
  }

  @Post('contacts')
  @Route({
    parse: parseAccessBody,
    body: addContactBodySchema,
    reply: AccessKeysRpc.addContact.reply,
    status: 201,
    description: 'Added (the same id and details again: the same contact, added once).',
    errors: {
      400: `VALIDATION_FAILED: "${IfImNotThereMessages.nameAndEmailRequired}", a malformed e-mail or phone, a relationship not offered.`,
      409: 'CONFLICT: the id names another contact.',
    },
  })
  async addContact(@RouteBody() body: z.output<typeof addContactBodySchema>, @CallCtx() call: CallContext): Promise<EmergencyContact> {
    return this.rpc.call(AccessKeysRpc.addContact, body, call);
  }

  @Delete('contacts/:id')
  @ApiParam({ name: 'id', format: 'uuid' })
  @Route({
    reply: AccessKeysRpc.removeContact.reply,
    description: 'Removed; its access key, if any, was revoked first.',
    errors: {
      404: 'No such contact of the caller.',
    },
  })
  async removeContact(@Param('id') id: string, @CallCtx() call: CallContext): Promise<{ id: string; removed: true }> {
    return this.rpc.call(AccessKeysRpc.removeContact, { id: idParam(id) }, call);
  }

  @Put('contacts/:id/access-key')
  @ApiParam({ name: 'id', format: 'uuid' })
  @Route({
    parse: parseAccessBody,
    body: setContactKeyBodySchema,
    reply: AccessKeysRpc.setContactKey.reply,
    description: 'On: a key valid 7 days, e-mailed to the contact and answered once. Off: the key is revoked with its sessions.',
    errors: {
      404: 'No such contact of the caller.',
    },
  })
  async setContactKey(@Param('id') id: string, @RouteBody() body: z.output<typeof setContactKeyBodySchema>, @CallCtx() call: CallContext): Promise<ContactKeyReply> {
    const { enabled } = body;
    return this.rpc.call(AccessKeysRpc.setContactKey, { id: idParam(id), enabled }, call);
  }

  @Get('trustees')
  @Route({
    reply: AccessKeysRpc.listTrustees.reply,
    description: 'The caller’s trustees (named, invited, accepted, declined, removed); the delivery settings’ single trustee, if any, is listed first, not yet invited.',
  })
  async trustees(@CallCtx() call: CallContext): Promise<Trustee[]> {
    return this.rpc.call(AccessKeysRpc.listTrustees, {}, call);
  }

  @Post('trustees')
  @Route({
    parse: parseAccessBody,
    body: addTrusteeBodySchema,
    reply: AccessKeysRpc.addTrustee.reply,
    status: 201,
    description: 'Named and e-mailed an invitation (a signed link valid 14 days, used once). The same id and details again: the same trustee, invited once.',
    errors: {
      400: `VALIDATION_FAILED: "${TrusteeMessages.nameAndEmailRequired}", a malformed e-mail, a relationship not offered, more than ${TRUSTEES_MAX} trustees, an address already a trustee.`,
      409: 'CONFLICT: the id names another trustee.',
    },
  })
  async addTrustee(@RouteBody() body: z.output<typeof addTrusteeBodySchema>, @CallCtx() call: CallContext): Promise<Trustee> {
    return this.rpc.call(AccessKeysRpc.addTrustee, body, call);
  }

  @Post('trustees/:id/invitation')
  @ApiParam({ name: 'id', format: 'uuid' })
  @Route({
    reply: AccessKeysRpc.resendTrusteeInvitation.reply,
    description: 'The invitation sent again with a new link (the old one stops working).',
    errors: {
      404: 'No such trustee of the caller.',
      409: `CONFLICT: "${TrusteeMessages.cannotResend}"`,
    },
  })
  async resendTrusteeInvitation(@Param('id') id: string, @CallCtx() call: CallContext): Promise<Trustee> {
    return this.rpc.call(AccessKeysRpc.resendTrusteeInvitation, { id: idParam(id) }, call);
  }

  @Delete('trustees/:id')
  @ApiParam({ name: 'id', format: 'uuid' })
  @Route({
    reply: AccessKeysRpc.removeTrustee.reply,
    description: 'Removed: their link stops working at once; they stay listed as removed.',
    errors: {
      404: 'No such trustee of the caller.',
    },
  })
  async removeTrustee(@Param('id') id: string, @CallCtx() call: CallContext): Promise<Trustee> {
    return this.rpc.call(AccessKeysRpc.removeTrustee, { id: idParam(id) }, call);
  }

  @Get('delivery-settings')
  @Route({ reply: AccessKeysRpc.deliverySettings.reply, description: 'The caller’s delivery settings; the spec’s defaults (updated_at null) until saved.' })
  async deliverySettings(@CallCtx() call: CallContext): Promise<DeliverySettings> {
    return this.rpc.call(AccessKeysRpc.deliverySettings, {}, call);
  }

  @Put('delivery-settings')
  @Route({
    parse: parseAccessBody,
    body: saveDeliverySettingsBodySchema,
    reply: AccessKeysRpc.saveDeliverySettings.reply,
    description: 'Saved as a whole.',
    errors: {
      400: 'VALIDATION_FAILED: a timing not offered, a malformed trustee e-mail, a field over its limit.',
    },
  })
  async saveDeliverySettings(@RouteBody() body: z.output<typeof saveDeliverySettingsBodySchema>, @CallCtx() call: CallContext): Promise<DeliverySettings> {
    return this.rpc.call(AccessKeysRpc.saveDeliverySettings, body, call);
  }

  @Get('delivery')
  @Route({ reply: AccessKeysRpc.delivery.reply, description: 'Whether a delivery of the caller’s vault has started, and when it is due.' })
  async delivery(@CallCtx() call: CallContext): Promise<DeliveryView> {
    return this.rpc.call(AccessKeysRpc.delivery, {}, call);
  }

  /** /test-vault-delivery: the delivery pipeline's checks against the running services (nothing is written). */
  @Post('delivery/checks')
  @Route({ reply: AccessKeysRpc.deliveryChecks.reply, description: 'Each check, passed or failed, with what it found.' })
  async deliveryChecks(@CallCtx() call: CallContext): Promise<DeliveryCheck[]> {
    return this.rpc.call(AccessKeysRpc.deliveryChecks, {}, call);
  }

  /** "I'm still here": stops a delivery that has started, before it happens. */
  @Post('delivery/cancel')
  @Route({
    reply: AccessKeysRpc.cancelDelivery.reply,
    description: 'Cancelled (or there was nothing to cancel).',
    errors: {
      409: 'CONFLICT: the vault has already been delivered.',
    },
  })
  async cancelDelivery(@CallCtx() call: CallContext): Promise<DeliveryView> {
    return this.rpc.call(AccessKeysRpc.cancelDelivery, {}, call);
  }

  @Get('trustee-report')
  @Route({
    reply: AccessKeysRpc.openTrusteeReport.reply,
    description: 'The trustee report under way, if any: who reported what, and when the veto window ends.',
  })
  async trusteeReport(@CallCtx() call: CallContext) {
    return this.rpc.call(AccessKeysRpc.openTrusteeReport, {}, call);
  }

  @Post('trustee-report/veto')
  @Route({
    reply: AccessKeysRpc.vetoTrusteeReport.reply,
    description: '"I\'m still here": the report ends, the delivery it started is cancelled, and its reporter cannot report again for 30 days.',
    errors: {
      409: `CONFLICT: "${TrusteeMessages.noOpenReport}"`,
    },
  })
  async vetoTrusteeReport(@CallCtx() call: CallContext) {
    return this.rpc.call(AccessKeysRpc.vetoTrusteeReport, {}, call);
  }

  @Get('inactivity')
  @Route({
    reply: AccessKeysRpc.inactivity.reply,
    description: 'The caller’s inactivity watch: the period (null: off), paused or not, and when the warnings and the delivery are due.',
  })
  async inactivity(@CallCtx() call: CallContext): Promise<InactivityWatch> {
    return this.rpc.call(AccessKeysRpc.inactivity, {}, call);
  }

  @Put('inactivity')
  @Route({
    parse: parseAccessBody,
    body: saveInactivityBodySchema,
    reply: AccessKeysRpc.saveInactivity.reply,
    description: 'Saved; the watch counts from now (a period of null turns it off).',
    errors: {
      400: `VALIDATION_FAILED: a period other than ${INACTIVITY_PERIODS.join(', ')} days or null.`,
    },
  })
  async saveInactivity(@RouteBody() body: z.output<typeof saveInactivityBodySchema>, @CallCtx() call: CallContext): Promise<InactivityWatch> {
    return this.rpc.call(AccessKeysRpc.saveInactivity, body, call);
  }

  @Post('inactivity/pause')
  @Route({
    reply: AccessKeysRpc.pauseInactivity.reply,
    description: 'Paused: no warning and no delivery until resumed.',
    errors: {
      409: 'CONFLICT: no period is chosen.',
    },
  })
  async pauseInactivity(@CallCtx() call: CallContext): Promise<InactivityWatch> {
    return this.rpc.call(AccessKeysRpc.pauseInactivity, {}, call);
  }

  @Post('inactivity/resume')
  @Route({ reply: AccessKeysRpc.resumeInactivity.reply, description: 'Resumed: the watch counts from now.' })
  async resumeInactivity(@CallCtx() call: CallContext): Promise<InactivityWatch> {
    return this.rpc.call(AccessKeysRpc.resumeInactivity, {}, call);
  }

  @Post('inactivity/test-warning')
  @Route({
    reply: AccessKeysRpc.testInactivityWarning.reply,
    description: 'A test warning is on its way to the caller’s e-mail, with a working check-in link.',
    errors: {
      409: 'CONFLICT: the watch is off or paused.',
      429: 'RATE_LIMITED: a test warning was sent less than 10 minutes ago.',
    },
  })
  async testInactivityWarning(@CallCtx() call: CallContext): Promise<InactivityWatch> {
    return this.rpc.call(AccessKeysRpc.testInactivityWarning, {}, call);
  }

  /**
   * Public on purpose: the "I'm still here" link of a warning e-mail is its own credential (signed by
   * access-keys for one owner and one warning, expiring, used once). A malformed link gets the same
   * answer as a forged, expired or used one.
   */
  @Public()
  @Post('check-in')
  @Route({
    body: checkInLinkBodySchema,
    reply: AccessKeysRpc.checkInByLink.reply,
    description: 'Checked in: the watch counts from now; a delivery under way, if any, was stopped.',
    errors: {
      400: `CHECK_IN_LINK_INVALID: "${ErrorCodes.CHECK_IN_LINK_INVALID.message}"`,
    },
  })
  async checkIn(@Body() body: unknown, @CallCtx() call: CallContext): Promise<CheckInReply> {
    const parsed = checkInLinkBodySchema.safeParse(body);
    if (!parsed.success) throw new DomainError('CHECK_IN_LINK_INVALID');
    return this.rpc.call(AccessKeysRpc.checkInByLink, parsed.data, call);
  }
}
