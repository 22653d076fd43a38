import { snakeKeys } from '../../../kit/case.js';
import type { OutboxEvent } from '../../../kit/database/write/write-frame.js';
import type { Member } from './member.entity.js';
import { MemberType } from './member.type.js';

export type MemberEventType = 'member.created' | 'member.updated' | 'member.deleted';

/** A member event for the write frame: the member's wire body (as the REST API serves it) after the change. */
export function memberEvent(type: MemberEventType, member: Member, at: Date): OutboxEvent {
  const payload = snakeKeys<Record<string, unknown>>(MemberType.fromEntity(member));
  return { organizationId: member.organizationId, type, payload, at };
}
