// Learning from the reviewers (issue 41): consent per child, the reviewed set, agreement, shadow model.
export * from "./model.ts";
export * from "./requests.ts";
export * from "./consent-text.ts";
export { chooseConsent, consentAsked, myConsents } from "./consent.ts";
export { exampleImage, newReviewedSet, recordReviewedSet, reviewedPhotos, reviewedSetStats, SET_FORMAT, setCounts, truthOf, type TruthItem } from "./reviewed-set.ts";
export { type Agreement, agreementLines, agreementOf, agreementRowOf, type AgreementRow, OFF_BY } from "./agreement.ts";
export { modelPage, RECENT_DAYS, WORST_SHOWN } from "./model-page.ts";
export {
  installedModels,
  InstalledModels,
  installShadow,
  installShadowAsAdmin,
  measureShadow,
  MODEL_ROLES,
  modelBlobKey,
  ModelRuntime,
  promoteAsAdmin,
  promoteShadow,
  queueShadowMeasurement,
  requireAdmin,
  rollbackAsAdmin,
  rollbackModel,
  SHADOW_MEASURE_JOB,
  ShadowMeasurements,
  withShippedModel,
  type InstalledModel,
  type InstalledModelsPort,
  type InstalledModelSummary,
  type ModelRole,
  type ModelRuntimePort,
  type OpenedModel,
  type ShadowAnswer,
  type ShadowMeasurementsPort,
} from "./shadow-model.ts";
