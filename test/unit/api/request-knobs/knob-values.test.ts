import { describe, expect, it } from '@jest/globals';
import { budgetOfKnobs, oipParameterKnobs, positiveInteger, withOipParameters } from '../../../../src/api/request-knobs/knob-values.js';
import { NOT_CANCELLED, RequestBudget } from '../../../../src/budget/request-budget.js';

describe('positiveInteger', () => {
  it('reads a number or digits as text', () => {
    expect(positiveInteger(3, 'x', 1)).toBe(3);
    expect(positiveInteger('03', 'x', 1)).toBe(3);
  });

  it('shows an infinity (JSON 1e400) as such in its refusal, not as null', () => {
    expect(() => positiveInteger(Infinity, 'parameters.priority', 1)).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: 'parameters.priority must be an integer of at least 1, got Infinity' }),
    );
  });

  it.each([['99999999999999999999'], [2 ** 60]])('names the upper bound when refusing a whole number too large to hold exactly (%p)', (value) => {
    expect(() => positiveInteger(value, 'the x-sluice-timeout-ms header', 1)).toThrow(
      `the x-sluice-timeout-ms header must be at most 9007199254740991, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`,
    );
  });

  it('quotes text it refuses', () => {
    expect(() => positiveInteger('1.5', 'the x-sluice-priority header', 1)).toThrow('the x-sluice-priority header must be an integer of at least 1, got "1.5"');
  });
});

describe('oipParameterKnobs', () => {
  it('reads the timeout in microseconds', () => {
    expect(oipParameterKnobs({ priority: 2, timeout: 1500 })).toEqual({ priority: 2, timeoutMs: 1.5 });
  });
});

describe('budgetOfKnobs', () => {
  it('reads the priority and own timeout from their text', () => {
    const budget = budgetOfKnobs({ priority: '2', timeout: '250' }, 'header', { cancellation: NOT_CANCELLED });
    expect({ priority: budget.priority, timeoutMs: budget.timeoutMs, deadline: budget.deadline }).toEqual({ priority: 2, timeoutMs: 250, deadline: Infinity });
  });

  it('names the carrier of a knob it refuses', () => {
    expect(() => budgetOfKnobs({ priority: undefined, timeout: 'soon' }, 'metadata', { cancellation: NOT_CANCELLED })).toThrow(
      'the x-sluice-timeout-ms metadata must be an integer of at least 1, got "soon"',
    );
  });

  it('takes the client’s deadline as the hard deadline', () => {
    const before = performance.now();
    const budget = budgetOfKnobs({ priority: undefined, timeout: undefined }, 'metadata', { deadlineMs: 500, cancellation: NOT_CANCELLED });
    expect(budget.deadline).toBeGreaterThanOrEqual(before + 500);
  });
});

describe('withOipParameters', () => {
  it('keeps the header’s own timeout when parameters.timeout is longer', () => {
    expect(withOipParameters(RequestBudget.of({ timeoutMs: 20 }, 0), { timeout: 60_000_000 }).timeoutMs).toBe(20);
  });

  it('takes parameters.timeout when it is shorter than the header’s', () => {
    expect(withOipParameters(RequestBudget.of({ timeoutMs: 20 }, 0), { timeout: 5000 }).timeoutMs).toBe(5);
  });

  it('lets parameters.priority replace the header’s', () => {
    expect(withOipParameters(RequestBudget.of({ priority: 3 }, 0), { priority: 1 }).priority).toBe(1);
  });
});
