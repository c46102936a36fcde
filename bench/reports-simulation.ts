import { binOf } from '../src/platform/reports/report.bins.js';
import { type DurationMetric, EVERY } from '../src/platform/reports/report.table.js';
import { localDay } from '../src/platform/reports/report-aggregates.service.js';
import { seededRandom } from './random.js';

/**
 * A year of a support desk's tickets, simulated ticket by ticket, and the report aggregates they
 * leave: the counts the change transactions would have written (`platform/reports/report.table.ts`)
 * had each ticket gone through the API, which a million tickets cannot in a bench's seed. The same
 * ticket number always gives the same ticket (a seeded generator per ticket), so the ticket rows
 * and the aggregates are written from one simulation in two passes without keeping either.
 *
 * Shape: tickets spread evenly over the year before `now`; the team is the ticket's number modulo
 * the teams; 5% unassigned; first replies log-normal around 35 minutes, resolutions around 7 hours
 * after it; 6% reopened once; a policy of 60 minutes to the first reply and a day to resolution;
 * a survey on a quarter of the closes, answered by a third, 85% good. Business durations are a
 * quarter of calendar ones (40 of 168 hours a week): they only need a realistic spread of bins.
 */
export interface DeskShape {
  tickets: number;
  now: number;
  days: number;
  teams: {
    id: string;
    timezone: string;
    agentIds: string[];
    openStatusId: string;
    closedStatusId: string;
    priorityIds: string[];
  }[];
  slaPolicyId: string;
}

export interface SimulatedTicket {
  team: number;
  agentId: string | null;
  priority: number;
  createdAt: number;
  /** Minutes from creation to the first public reply by a person; null: not answered yet. */
  firstReplyMinutes: number | null;
  /** Public replies by people, at their instants. */
  replies: number[];
  /** Each close (a reopened ticket has two), and the reopen between them. */
  closes: number[];
  reopenedAt: number | null;
  survey: { sentAt: number; rating: 'good' | 'bad' | null } | null;
}

const MINUTE = 60_000;

function logNormal(random: () => number, medianMinutes: number, sigma: number): number {
  const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return medianMinutes * Math.exp(sigma * normal);
}

export function simulateTicket(shape: DeskShape, index: number): SimulatedTicket {
  const random = seededRandom(index + 1);
  const team = index % shape.teams.length;
  const { agentIds } = shape.teams[team] as DeskShape['teams'][number];
  const span = shape.days * 24 * 60 * MINUTE;
  const createdAt = Math.floor(shape.now - span + (index / shape.tickets) * span + random() * MINUTE);
  const agentId = random() < 0.05 ? null : (agentIds[Math.floor(random() * agentIds.length)] ?? null);
  const priority = Math.floor(random() * 4);
  const reply = logNormal(random, 35, 1.3);
  const answered = agentId !== null && createdAt + reply * MINUTE < shape.now;
  const replies: number[] = [];
  const closes: number[] = [];
  let reopenedAt: number | null = null;
  if (answered) {
    const resolved = createdAt + (reply + logNormal(random, 420, 1.2)) * MINUTE;
    const count = 1 + Math.floor(random() * 3);
    for (let k = 0; k < count; k++) {
      replies.push(createdAt + reply * MINUTE + ((resolved - createdAt - reply * MINUTE) * k) / count);
    }
    if (resolved < shape.now) {
      closes.push(resolved);
      if (random() < 0.06) {
        reopenedAt = resolved + logNormal(random, 60 * 24, 1) * MINUTE;
        const again = reopenedAt + logNormal(random, 240, 1) * MINUTE;
        if (reopenedAt >= shape.now) {
          reopenedAt = null;
        } else {
          replies.push(reopenedAt + 30 * MINUTE);
          if (again < shape.now) {
            closes.push(again);
          }
        }
      }
    }
  }
  const lastClose = closes.at(-1);
  const surveyed = lastClose !== undefined && random() < 0.25;
  const answeredSurvey = random() < 1 / 3;
  const rating = random() < 0.85 ? 'good' : 'bad';
  return {
    team,
    agentId,
    priority,
    createdAt,
    firstReplyMinutes: answered ? reply : null,
    replies: replies.filter((at) => at < shape.now),
    closes,
    reopenedAt,
    survey: surveyed ? { sentAt: lastClose, rating: answeredSurvey ? rating : null } : null,
  };
}

/** Whether the ticket is closed now, for its row. */
export function isClosedNow(ticket: SimulatedTicket): boolean {
  return ticket.closes.length > 0 && (ticket.reopenedAt === null || ticket.closes.length === 2);
}

type Counts = { created: number; closed: number; reopened: number; public_replies: number; backlog_delta: number };
type Outcome = { met: number; breached: number };
type Survey = { sent: number; responses: number; good: number; bad: number };

/** The aggregate rows of the simulated desk, keyed as the tables' primary keys. */
export class DeskAggregates {
  readonly daily = new Map<string, Counts>();
  readonly bins = new Map<string, number>();
  readonly sla = new Map<string, Outcome>();
  readonly satisfaction = new Map<string, Survey>();
  readonly #dayCache = new Map<string, string>();

  constructor(private readonly shape: DeskShape) {}

  /** The team's local day of an instant (cached per hour: the zones used have whole-hour offsets). */
  dayOf(team: number, at: number): string {
    const { timezone } = this.shape.teams[team] as DeskShape['teams'][number];
    const hour = Math.floor(at / (60 * MINUTE));
    const cacheKey = `${timezone}|${hour}`;
    let day = this.#dayCache.get(cacheKey);
    if (day === undefined) {
      day = localDay(new Date(hour * 60 * MINUTE), timezone);
      this.#dayCache.set(cacheKey, day);
    }
    return day;
  }

  add(ticket: SimulatedTicket): void {
    const teamId = (this.shape.teams[ticket.team] as DeskShape['teams'][number]).id;
    const agent = ticket.agentId ?? '';
    // The fact's own key and its rollups, the team's for every agent and the organization's.
    const keys = (at: number) => {
      const day = this.dayOf(ticket.team, at);
      return [`${teamId}|${agent}|${day}`, `${teamId}|${EVERY}|${day}`, `${EVERY}|${EVERY}|${day}`];
    };
    const count = (at: number, counts: Partial<Counts>) => {
      for (const key of keys(at)) {
        const row = this.daily.get(key) ?? { created: 0, closed: 0, reopened: 0, public_replies: 0, backlog_delta: 0 };
        for (const [name, value] of Object.entries(counts) as [keyof Counts, number][]) {
          row[name] += value;
        }
        this.daily.set(key, row);
      }
    };
    const bin = (at: number, metric: DurationMetric, minutes: number) => {
      for (const key of keys(at)) {
        const id = `${key}|${metric}|${binOf(minutes)}`;
        this.bins.set(id, (this.bins.get(id) ?? 0) + 1);
      }
    };
    const outcome = (at: number, metric: string, met: boolean) => {
      for (const key of keys(at)) {
        const id = `${key}|${this.shape.slaPolicyId}|${metric}`;
        const row = this.sla.get(id) ?? { met: 0, breached: 0 };
        row[met ? 'met' : 'breached'] += 1;
        this.sla.set(id, row);
      }
    };
    count(ticket.createdAt, { created: 1, backlog_delta: 1 });
    for (const at of ticket.replies) {
      count(at, { public_replies: 1 });
    }
    if (ticket.firstReplyMinutes !== null) {
      const at = ticket.createdAt + ticket.firstReplyMinutes * MINUTE;
      bin(at, 'first_reply_calendar', ticket.firstReplyMinutes);
      bin(at, 'first_reply_business', ticket.firstReplyMinutes / 4.2);
      const met = ticket.firstReplyMinutes <= 60;
      outcome(met ? at : ticket.createdAt + 60 * MINUTE, 'firstReply', met);
    }
    for (const [k, at] of ticket.closes.entries()) {
      count(at, { closed: 1, backlog_delta: -1 });
      const minutes = (at - ticket.createdAt) / MINUTE;
      bin(at, 'resolution_calendar', minutes);
      bin(at, 'resolution_business', minutes / 4.2);
      if (k === ticket.closes.length - 1) {
        const met = minutes <= 24 * 60;
        outcome(met ? at : ticket.createdAt + 24 * 60 * MINUTE, 'resolution', met);
      }
    }
    if (ticket.reopenedAt !== null) {
      count(ticket.reopenedAt, { reopened: 1, backlog_delta: 1 });
    }
    for (const id of ticket.survey ? keys(ticket.survey.sentAt) : []) {
      const row = this.satisfaction.get(id) ?? { sent: 0, responses: 0, good: 0, bad: 0 };
      row.sent += 1;
      if (ticket.survey?.rating) {
        row.responses += 1;
        row[ticket.survey.rating] += 1;
      }
      this.satisfaction.set(id, row);
    }
  }
}
