/** `%text%` for `$ilike`, with the pattern characters of `text` escaped (a search for `50%` finds "50%"). */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, c => `\\${c}`)}%`;
