/** The SLA metrics a policy sets per priority, in minutes (Zendesk's meanings); the console shares the list. */
export const SLA_METRICS = ['firstReply', 'nextReply', 'periodicUpdate', 'resolution'] as const;
export type SlaMetric = (typeof SLA_METRICS)[number];
