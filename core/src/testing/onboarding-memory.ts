import { Effect, Exit, Layer, Option } from "effect";
import type { Caller } from "../accounts/model.ts";
import { AccountHooks, CurrentUser } from "../accounts/model.ts";
import { type Notification, Notifications, type NotificationsPort } from "../notifications/model.ts";
import { onboardingHooksLayer } from "../onboarding/hooks.ts";
import { Babies, type BabiesPort, type Baby, type BaaSignature, BaaSignatures, babyName, type MarketingLead, MarketingLeads, PhysicianDirectory, type QuizAttempt, QuizAttempts, UploadHistory } from "../onboarding/model.ts";
import { QUIZ_LENGTH, QuizAnswerKey, type QuizAnswerKeyData, type QuizAnswerValue } from "../onboarding/quiz.ts";
import type { QuizMode } from "../onboarding/model.ts";
import { type Delegation, Delegations, type DelegationsPort } from "../accounts/delegations.ts";
import { type PatientLinkRequest, PatientLinkRequests, type PatientLinkRequestsPort } from "../practice/model.ts";
import { Transactor } from "../shared/ports.ts";
import type { TestServices, TestWorld } from "./memory.ts";
import { rollbackOnFailure } from "./rollback.ts";

/**
 * In-memory onboarding, practice and notification ports over a test world (memory.ts). The
 * maps are plain and readable by tests. Its Transactor wraps the world's: a failed transaction
 * restores these maps as the world restores its own tables.
 */

export type OnboardingServices =
  | Babies
  | PhysicianDirectory
  | BaaSignatures
  | QuizAttempts
  | MarketingLeads
  | UploadHistory
  | QuizAnswerKey
  | Delegations
  | PatientLinkRequests
  | Notifications
  | AccountHooks
  | Transactor;

export interface OnboardingWorld {
  readonly world: TestWorld;
  readonly layer: Layer.Layer<OnboardingServices, never, TestServices>;
  readonly babies: Map<string, Baby>;
  readonly delegations: Map<string, Delegation>;
  readonly linkRequests: Map<string, PatientLinkRequest>;
  readonly notifications: Map<string, Notification>;
  readonly baaSignatures: BaaSignature[];
  readonly quizAttempts: QuizAttempt[];
  readonly leads: MarketingLead[];
  /** Last upload per baby, as the report pipeline would answer. */
  readonly uploads: Map<string, Date>;
  readonly run: <A, E>(effect: Effect.Effect<A, E, TestServices | OnboardingServices>) => Promise<A>;
  readonly runAs: <A, E>(caller: Caller, effect: Effect.Effect<A, E, TestServices | OnboardingServices | CurrentUser>) => Promise<A>;
  readonly exitAs: <A, E>(caller: Caller, effect: Effect.Effect<A, E, TestServices | OnboardingServices | CurrentUser>) => Promise<Exit.Exit<A, E>>;
}

/** A small answer key: 12 photos per pool, the odd ones good. */
export const TEST_QUIZ_KEY: QuizAnswerKeyData = {
  cap: Array.from({ length: 12 }, (_, i) => ({ image: `/quiz/cap/${String(i + 1).padStart(2, "0")}.jpg`, good: i % 2 === 0 })),
  nocap: Array.from({ length: 12 }, (_, i) => ({ image: `/quiz/nocap/${String(i + 1).padStart(2, "0")}.jpg`, good: i % 3 === 0 })),
};

/** The answers to a quiz of the first `QUIZ_LENGTH` photos of a pool, `right` of them right. */
export const quizAnswers = (key: QuizAnswerKeyData, mode: QuizMode, right: number): Array<{ image: string; answer: QuizAnswerValue }> =>
  key[mode].slice(0, QUIZ_LENGTH).map((e, i) => ({ image: e.image, answer: (i < right) === e.good ? "GOOD" : "BAD" }));

const oldestFirst = <T extends { createdAt: Date; id: string }>(items: T[]) => items.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));

const paginate = <T>(items: ReadonlyArray<T>, page: { page: number; perPage: number }) => ({
  data: items.slice((page.page - 1) * page.perPage, page.page * page.perPage),
  total: items.length,
});

export const makeOnboardingWorld = (world: TestWorld): OnboardingWorld => {
  const babies = new Map<string, Baby>();
  const delegations = new Map<string, Delegation>();
  const linkRequests = new Map<string, PatientLinkRequest>();
  const notifications = new Map<string, Notification>();
  const baaSignatures: BaaSignature[] = [];
  const quizAttempts: QuizAttempt[] = [];
  const leads: MarketingLead[] = [];
  const uploads = new Map<string, Date>();

  const babiesPort: BabiesPort = {
    insert: (baby) => Effect.sync(() => void babies.set(baby.id, baby)),
    update: (id, patch) =>
      Effect.sync(() => {
        const b = babies.get(id);
        if (b) babies.set(id, { ...b, ...patch });
      }),
    findById: (id) => Effect.sync(() => Option.fromNullable(babies.get(id))),
    listByParent: (parentId) =>
      Effect.sync(() => [...babies.values()].filter((b) => b.parentId === parentId).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))),
    listByPhysician: (physicianId, search, page) =>
      Effect.sync(() => {
        const needle = search?.toLowerCase() ?? null;
        const matching = [...babies.values()]
          .filter((b) => b.physicianId === physicianId)
          .filter((b) => needle === null || babyName(b).toLowerCase().includes(needle) || (b.caregiverEmail ?? "").toLowerCase().includes(needle))
          .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id));
        return paginate(matching, page);
      }),
  };

  const delegationsPort: DelegationsPort = {
    insert: (d) => Effect.sync(() => void delegations.set(d.id, d)),
    findActive: (physicianId, staffId) =>
      Effect.sync(() => Option.fromNullable([...delegations.values()].find((d) => d.physicianId === physicianId && d.staffId === staffId && d.endedAt === null && d.acceptedAt !== null))),
    findLive: (physicianId, staffId) =>
      Effect.sync(() => Option.fromNullable([...delegations.values()].find((d) => d.physicianId === physicianId && d.staffId === staffId && d.endedAt === null))),
    findById: (id) => Effect.sync(() => Option.fromNullable(delegations.get(id))),
    listActiveForStaff: (staffId) =>
      Effect.sync(() => oldestFirst([...delegations.values()].filter((d) => d.staffId === staffId && d.endedAt === null && d.acceptedAt !== null))),
    listOffered: (staffId) => Effect.sync(() => oldestFirst([...delegations.values()].filter((d) => d.staffId === staffId && d.endedAt === null && d.acceptedAt === null))),
    accept: (id, at) =>
      Effect.sync(() => {
        const d = delegations.get(id);
        if (!d || d.endedAt !== null || d.acceptedAt !== null) return false;
        delegations.set(id, { ...d, acceptedAt: at });
        return true;
      }),
    listStaff: (physicianId, types, page) =>
      Effect.sync(() => {
        const members = [...delegations.values()]
          .filter((d) => d.physicianId === physicianId && d.endedAt === null && types.includes(d.staffType))
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
          .flatMap((d) => {
            const user = world.users.get(d.staffId);
            return user ? [{ delegation: d, user }] : [];
          });
        return paginate(members, page);
      }),
    end: (id, at, endedBy) =>
      Effect.sync(() => {
        const d = delegations.get(id);
        if (d && d.endedAt === null) delegations.set(id, { ...d, endedAt: at, endedBy });
      }),
  };

  const linkRequestsPort: PatientLinkRequestsPort = {
    insert: (r) => Effect.sync(() => void linkRequests.set(r.id, r)),
    findById: (id) => Effect.sync(() => Option.fromNullable(linkRequests.get(id))),
    listForParent: (parentId, status) => Effect.sync(() => oldestFirst([...linkRequests.values()].filter((r) => r.parentId === parentId && r.status === status))),
    answer: (id, from, to, at) =>
      Effect.sync(() => {
        const r = linkRequests.get(id);
        if (!r || r.status !== from) return false;
        linkRequests.set(id, { ...r, status: to, answeredAt: at });
        return true;
      }),
  };

  const notificationsPort: NotificationsPort = {
    insert: (n) => Effect.sync(() => void notifications.set(n.id, n)),
    list: (userId, page) =>
      Effect.sync(() =>
        paginate(
          [...notifications.values()].filter((n) => n.userId === userId).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id)),
          page,
        ),
      ),
    countUnread: (userId) => Effect.sync(() => [...notifications.values()].filter((n) => n.userId === userId && n.readAt === null).length),
    markRead: (userId, ids, at) =>
      Effect.sync(() => {
        let changed = 0;
        for (const n of notifications.values()) {
          if (n.userId === userId && n.readAt === null && (ids === null || ids.includes(n.id))) {
            notifications.set(n.id, { ...n, readAt: at });
            changed++;
          }
        }
        return changed;
      }),
  };

  const ports = Layer.mergeAll(
    Layer.succeed(Babies, babiesPort),
    Layer.succeed(Delegations, delegationsPort),
    Layer.succeed(PatientLinkRequests, linkRequestsPort),
    Layer.succeed(Notifications, notificationsPort),
    Layer.succeed(PhysicianDirectory, {
      search: (name, limit) =>
        Effect.sync(() =>
          [...world.users.values()]
            .filter((u) => u.type === "physician" && u.status === "Active" && `${u.firstName} ${u.lastName}`.toLowerCase().includes(name.toLowerCase()))
            .sort((a, b) => a.lastName.localeCompare(b.lastName) || a.firstName.localeCompare(b.firstName))
            .slice(0, limit),
        ),
    }),
    Layer.succeed(BaaSignatures, {
      insert: (s) => Effect.sync(() => void baaSignatures.push(s)),
      latestFor: (userId) => Effect.sync(() => Option.fromNullable(baaSignatures.filter((s) => s.userId === userId).at(-1))),
    }),
    Layer.succeed(QuizAttempts, {
      insert: (a) => Effect.sync(() => void quizAttempts.push(a)),
      listFor: (userId) => Effect.sync(() => quizAttempts.filter((a) => a.userId === userId)),
    }),
    Layer.succeed(MarketingLeads, { insert: (l) => Effect.sync(() => void leads.push(l)) }),
    Layer.succeed(QuizAnswerKey, TEST_QUIZ_KEY),
    Layer.succeed(UploadHistory, {
      lastUploads: (ids) => Effect.sync(() => new Map(ids.flatMap((id) => (uploads.has(id) ? [[id, uploads.get(id)!] as const] : [])))),
    }),
  );
  const transactor = rollbackOnFailure([babies, delegations, linkRequests, notifications], [baaSignatures, quizAttempts, leads]);
  const layer: Layer.Layer<OnboardingServices, never, TestServices> = Layer.mergeAll(ports, Layer.provide(onboardingHooksLayer, ports), transactor);

  const provide = <A, E>(effect: Effect.Effect<A, E, TestServices | OnboardingServices>) => Effect.provide(effect, layer);
  return {
    world,
    layer,
    babies,
    delegations,
    linkRequests,
    notifications,
    baaSignatures,
    quizAttempts,
    leads,
    uploads,
    run: (effect) => world.run(provide(effect)),
    runAs: (caller, effect) => world.run(provide(Effect.provideService(effect, CurrentUser, caller))),
    exitAs: (caller, effect) => world.exit(provide(Effect.provideService(effect, CurrentUser, caller))),
  };
};
