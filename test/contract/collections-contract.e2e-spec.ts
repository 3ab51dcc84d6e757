import { catalog } from '../support/fixtures';
import { contractCollections, factsCopy, unexplained } from './contract-facts';
import { differences } from './model-facts';

/**
 * The collection model (every collection's names, fields, relations, duplicate criteria and the
 * composite types) against the contract: the facts copy of collections.json plus the declared
 * additions of other API.md sections. A field renamed, retyped, made nullable or required, an
 * option set changed, a relation re-pointed, or anything the contract does not know: each is
 * one line of the failure, unless CONTRACT_DEVIATIONS gives the reason.
 */
describe('the collection model matches the contract', () => {
  const facts = factsCopy();

  it('has every collection and field of the contract, and nothing it does not declare', () => {
    const diffs = differences(catalog, contractCollections(facts), facts.compositeTypes);
    expect(unexplained(diffs)).toEqual([]);
  });

  it('is compared fact by fact: the facts copy holds the 37 collections and their facts', () => {
    // guards the comparison itself: an empty or truncated copy would make the test above vacuous
    const collections = Object.values(facts.collections);
    expect(collections).toHaveLength(37);
    const fields = collections.flatMap((c) => c.fields);
    expect(fields.filter((f) => f.type === 'RELATION').length).toBeGreaterThan(100);
    expect(fields.filter((f) => f.options).length).toBeGreaterThan(20);
    expect(fields.filter((f) => f.required).length).toBeGreaterThan(10);
    expect(Object.keys(facts.compositeTypes)).toHaveLength(8);
  });
});
