import { describe, expect, it } from '@jest/globals';
import { IRIS_SPECIES, loadIrisDataset, parseIrisCsv } from '../../../scripts/iris-dataset.js';

const HEADER = 'sepal_length,sepal_width,petal_length,petal_width,species';

describe('iris dataset', () => {
  it('loads the bundled table: 150 rows, 50 of each species', async () => {
    const dataset = await loadIrisDataset();
    expect(dataset.rows).toBe(150);
    expect(dataset.features).toHaveLength(600);
    const counts = IRIS_SPECIES.map((_, index) => dataset.classes.filter((value) => value === index).length);
    expect(counts).toEqual([50, 50, 50]);
  });

  it('parses measurements row-major and species as class indices', () => {
    const dataset = parseIrisCsv(`${HEADER}\r\n5.1,3.5,1.4,0.2,setosa\r\n6.3,3.3,6,2.5,virginica\r\n\r\n`);
    expect(dataset.rows).toBe(2);
    expect(Array.from(dataset.features)).toEqual([5.1, 3.5, 1.4, 0.2, 6.3, 3.3, 6, 2.5]);
    expect(Array.from(dataset.classes)).toEqual([0, 2]);
  });

  it('refuses a different header', () => {
    expect(() => parseIrisCsv('a,b,c,d,e\n1,2,3,4,setosa\n')).toThrow('header');
  });

  it('refuses an empty measurement, naming the line', () => {
    expect(() => parseIrisCsv(`${HEADER}\n5.1,,1.4,0.2,setosa\n`)).toThrow('line 2');
  });

  it('refuses an unknown species, naming it', () => {
    expect(() => parseIrisCsv(`${HEADER}\n5.1,3.5,1.4,0.2,rosa\n`)).toThrow('rosa');
  });
});
