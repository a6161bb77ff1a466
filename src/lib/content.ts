/** An OpenAPI `content` map for a JSON body or response with the given schema. */
export const json = <T>(schema: T) => ({ 'application/json': { schema } });
