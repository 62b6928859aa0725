/** The console's Indonesian areas beyond the shell and the errors (loaded together by providers/i18n.ts). */
export default import.meta.glob<Record<string, unknown>>(['../locales/id/*.json', '!../locales/id/{common,layout,auth,misc,errors}.json'], { eager: true, import: 'default' });
