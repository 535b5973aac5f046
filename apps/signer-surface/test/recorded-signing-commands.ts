import type { MessageEnvelope } from '@swapgw/contracts';
import withFamily from './recorded/signing-prepare-v1.with-family.json';
import beforeFamily from './recorded/signing-prepare-v1.before-family.json';

/**
 * `signing.prepare` commands of version 1 (the step's fields flat on the command) as the planner
 * wrote them before the step became `step`: one of every kind of step the planner makes, captured
 * from the planner's own step building and prepareCommandOf of that time (`recordedFrom` names the
 * spec whose build it was). `withFamily`: as the planner sent them from issue 32 on, naming the
 * variant; `beforeFamily`: the same commands as the planner sent them before, without `family`.
 * What operators replay from signing.commands or what an outbox still holds after an upgrade.
 */
export interface RecordedCommand {
  name: string;
  recordedFrom: string;
  envelope: MessageEnvelope<Record<string, unknown>>;
}

export const RECORDED_WITH_FAMILY: readonly RecordedCommand[] = withFamily;
export const RECORDED_BEFORE_FAMILY: readonly RecordedCommand[] = beforeFamily;

/** The header of a command: every field of a version-1 payload that is not the step's. */
const HEADER_FIELDS = ['swapId', 'stepId', 'stepIndex', 'stepCount', 'kind', 'chain', 'from', 'owner'];

/**
 * The step a recorded command that names its family describes, read off the command itself: every
 * field besides the header. What signer-surface must store for it, whichever version it came in.
 */
export function recordedStepOf(recorded: RecordedCommand): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(recorded.envelope.payload).filter(([field]) => !HEADER_FIELDS.includes(field)),
  );
}
