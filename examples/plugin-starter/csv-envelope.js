// An envelope: a CSV body, one instance per line, answered as CSV, one answer per line.

export const csvEnvelope = {
  name: 'starter-csv',
  decode(request) {
    const text = new TextDecoder().decode(request.body);
    const lines = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');
    if (lines.length === 0) throw new Error('the CSV body has no lines; send one instance per line');
    return lines.map((line) => ({ body: line.split(',').map((cell) => Number(cell)), contentType: 'application/json' }));
  },
  encode(responses) {
    // One cell per plain value of an object answer (`{species, probability}` → `setosa,0.98`).
    const cells = (answer) =>
      typeof answer === 'object' && answer !== null ? Object.values(answer).filter((v) => typeof v !== 'object').join(',') : String(answer);
    const lines = responses.map(cells);
    return { body: new TextEncoder().encode(lines.join('\n') + '\n'), contentType: 'text/csv' };
  },
};
