import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiOkResponse, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  AccessKeysRpc, addContactBodySchema, IfImNotThereMessages, saveDeliverySettingsBodySchema, setContactKeyBodySchema, type ContactKeyReply, type DeliverySettings,
  type DeliveryCheck, type DeliveryView, type EmergencyContact,
} from '@lv/contracts';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import { idParam, parseAccessBody } from '../access/access-body.js';
import {
  AddContactDto, ContactKeyReplyDto, DeliveryCheckDto, DeliverySettingsDto, DeliveryViewDto, EmergencyContactDto, ErrorBodyDto, RemoveContactReplyDto, SaveDeliverySettingsDto, SetContactKeyDto,
} from '../http/api-models.js';
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
@ApiResponse({ status: 401, type: ErrorBodyDto, description: 'No valid access token.' })
@ApiResponse({ status: 503, type: ErrorBodyDto, description: 'access-keys is unavailable.' })
@Controller('if-im-not-there')
export class IfImNotThereController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  @Get('contacts')
  @ApiOkResponse({ type: EmergencyContactDto, isArray: true, description: 'The caller’s emergency contacts, in the order they were added.' })
  async contacts(@CallCtx() call: CallContext): Promise<EmergencyContact[]> {
    return this.rpc.call(AccessKeysRpc.listContacts, {}, call);
  }

  @Post('contacts')
  @HttpCode(201)
  @ApiBody({ type: AddContactDto })
  @ApiCreatedResponse({ type: EmergencyContactDto, description: 'Added (the same id and details again: the same contact, added once).' })
  @ApiResponse({ status: 400, type: ErrorBodyDto, description: `VALIDATION_FAILED: "${IfImNotThereMessages.nameAndEmailRequired}", a malformed e-mail or phone, a relationship not offered.` })
  @ApiResponse({ status: 409, type: ErrorBodyDto, description: 'CONFLICT: the id names another contact.' })
  async addContact(@Body() body: unknown, @CallCtx() call: CallContext): Promise<EmergencyContact> {
    return this.rpc.call(AccessKeysRpc.addContact, parseAccessBody(addContactBodySchema, body), call);
  }

  @Delete('contacts/:id')
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiOkResponse({ type: RemoveContactReplyDto, description: 'Removed; its access key, if any, was revoked first.' })
  @ApiResponse({ status: 404, type: ErrorBodyDto, description: 'No such contact of the caller.' })
  async removeContact(@Param('id') id: string, @CallCtx() call: CallContext): Promise<{ id: string; removed: true }> {
    return this.rpc.call(AccessKeysRpc.removeContact, { id: idParam(id) }, call);
  }

  @Put('contacts/:id/access-key')
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiBody({ type: SetContactKeyDto })
  @ApiOkResponse({ type: ContactKeyReplyDto, description: 'On: a key valid 7 days, e-mailed to the contact and answered once. Off: the key is revoked with its sessions.' })
  @ApiResponse({ status: 404, type: ErrorBodyDto, description: 'No such contact of the caller.' })
  async setContactKey(@Param('id') id: string, @Body() body: unknown, @CallCtx() call: CallContext): Promise<ContactKeyReply> {
    const { enabled } = parseAccessBody(setContactKeyBodySchema, body);
    return this.rpc.call(AccessKeysRpc.setContactKey, { id: idParam(id), enabled }, call);
  }

  @Get('delivery-settings')
  @ApiOkResponse({ type: DeliverySettingsDto, description: 'The caller’s delivery settings; the spec’s defaults (updated_at null) until saved.' })
  async deliverySettings(@CallCtx() call: CallContext): Promise<DeliverySettings> {
    return this.rpc.call(AccessKeysRpc.deliverySettings, {}, call);
  }

  @Put('delivery-settings')
  @ApiBody({ type: SaveDeliverySettingsDto })
  @ApiOkResponse({ type: DeliverySettingsDto, description: 'Saved as a whole.' })
  @ApiResponse({ status: 400, type: ErrorBodyDto, description: 'VALIDATION_FAILED: a timing not offered, a malformed trustee e-mail, a field over its limit.' })
  async saveDeliverySettings(@Body() body: unknown, @CallCtx() call: CallContext): Promise<DeliverySettings> {
    return this.rpc.call(AccessKeysRpc.saveDeliverySettings, parseAccessBody(saveDeliverySettingsBodySchema, body), call);
  }

  @Get('delivery')
  @ApiOkResponse({ type: DeliveryViewDto, description: 'Whether a delivery of the caller’s vault has started, and when it is due.' })
  async delivery(@CallCtx() call: CallContext): Promise<DeliveryView> {
    return this.rpc.call(AccessKeysRpc.delivery, {}, call);
  }

  /** /test-vault-delivery: the delivery pipeline's checks against the running services (nothing is written). */
  @Post('delivery/checks')
  @HttpCode(200)
  @ApiOkResponse({ type: DeliveryCheckDto, isArray: true, description: 'Each check, passed or failed, with what it found.' })
  async deliveryChecks(@CallCtx() call: CallContext): Promise<DeliveryCheck[]> {
    return this.rpc.call(AccessKeysRpc.deliveryChecks, {}, call);
  }

  /** "I'm still here": stops a delivery that has started, before it happens. */
  @Post('delivery/cancel')
  @HttpCode(200)
  @ApiOkResponse({ type: DeliveryViewDto, description: 'Cancelled (or there was nothing to cancel).' })
  @ApiResponse({ status: 409, type: ErrorBodyDto, description: 'CONFLICT: the vault has already been delivered.' })
  async cancelDelivery(@CallCtx() call: CallContext): Promise<DeliveryView> {
    return this.rpc.call(AccessKeysRpc.cancelDelivery, {}, call);
  }
}
