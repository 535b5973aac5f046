import { createHash } from 'node:crypto';
import type { PartitionAssigner } from '@nestjs/microservices/external/kafka.interface';
import { AssignerProtocol } from 'kafkajs';

const ASSIGNER_NAME = 'SwapgwOwnReplyPartition';

/** Which of `partitionCount` reply partitions an instance reads: stable for its instance id. */
export function ownReplyPartitionIndex(instanceId: string, partitionCount: number): number {
  return createHash('sha256').update(instanceId).digest().readUInt32BE(0) % partitionCount;
}

/**
 * Partition assigner of a requester's own reply group: one partition of each reply topic, picked
 * from the instance id, instead of all of them. The requester names that partition in every
 * request (Nest's reply-partition header), so its replies land there, and it reads only the replies
 * of the instances that share it (about 1/8 of the traffic with 8 reply partitions) instead of every
 * reply of every instance: an idle gateway no longer spends CPU, nor the broker fetches, on the
 * replies of a busy one. Correlation ids still tell a shared partition's replies apart.
 */
export function ownReplyPartitionAssigner(instanceId: string): PartitionAssigner {
  return ({ cluster }) => ({
    name: ASSIGNER_NAME,
    version: 1,
    protocol: ({ topics }) => ({
      name: ASSIGNER_NAME,
      metadata: AssignerProtocol.MemberMetadata.encode({ version: 1, topics, userData: Buffer.alloc(0) }),
    }),
    assign: async ({ members, topics }) => {
      const assignment: Record<string, number[]> = {};
      for (const topic of topics) {
        const partitions = cluster
          .findTopicPartitionMetadata(topic)
          .map((p) => p.partitionId)
          .sort((a, b) => a - b);
        if (partitions.length > 0)
          assignment[topic] = [partitions[ownReplyPartitionIndex(instanceId, partitions.length)]];
      }
      // A group of one member (one group per client generation); should another join, it reads the same.
      return members.map(({ memberId }) => ({
        memberId,
        memberAssignment: AssignerProtocol.MemberAssignment.encode({
          version: 1,
          assignment,
          userData: Buffer.alloc(0),
        }),
      }));
    },
  });
}
