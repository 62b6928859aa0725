// Each area's demo rows register themselves in seed/registry.ts; add one import per area.
export {};
