export { API_BASE, apiRoutes, busyBodyFor, createHttpApp, type AnsweredRequest, type ApiOptions, type AppType } from "./app.ts";
export { runUseCase, ok, errorResponse, HttpFailure, type HttpPorts, type HttpRuntime, type UseCaseContext } from "./effect-bridge.ts";
export type { Env } from "./env.ts";
export { documented, openApiDocument } from "./openapi.ts";
export { requireCaller } from "./middleware.ts";
export { jsonBody, bearerToken, pageParam, decodePasswords } from "./request.ts";
export { FHIR_BASE } from "./routes/fhir.ts";
export { BUSY_MESSAGE, DEFAULT_LOAD_LIMIT, LoadGate, refuseEarly, shedLoad, type LoadLimit } from "./load-shedding.ts";
export { MULTIPART_ROUTES, readSmallBody } from "./body-policy.ts";
