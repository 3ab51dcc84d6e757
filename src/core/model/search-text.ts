/**
 * Accented letters and their plain forms, one for one, as `translate()` takes them (and `@` as a
 * space, so that an address is words: `zoe@acme` finds zoe@acme.test): the search vectors are
 * built over the translated text, and search terms are translated the same way, so that search
 * ignores accents (`Zoë` finds `Zoe` and `zoe` finds `Zoë`) on every database.
 */
export const SEARCH_ACCENTS = {
  from: '@àáâãäåāăąçćčďèéêëēėęěìíîïīįłñńňòóôõöøōőŕřśšşťùúûüūůűųýÿźžżÀÁÂÃÄÅĀĂĄÇĆČĎÈÉÊËĒĖĘĚÌÍÎÏĪĮŁÑŃŇÒÓÔÕÖØŌŐŔŘŚŠŞŤÙÚÛÜŪŮŰŲÝŸŹŽŻ',
  to: ' aaaaaaaaacccdeeeeeeeeiiiiiilnnnoooooooorrssstuuuuuuuuyyzzzAAAAAAAAACCCDEEEEEEEEIIIIIILNNNOOOOOOOORRSSSTUUUUUUUUYYZZZ',
};

const PLAIN = new Map([...SEARCH_ACCENTS.from].map((c, i) => [c, SEARCH_ACCENTS.to[i]]));

/** A search term as the vectors hold words: without accents, lower case. */
export function plainSearchText(text: string): string {
  return [...text]
    .map((c) => PLAIN.get(c) ?? c)
    .join('')
    .toLowerCase();
}
