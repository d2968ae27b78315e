// The API console: swagger-ui over the OpenAPI document this server serves. The document names no
// other server, so "Try it out" calls this origin, and the browser sends the session cookie with
// them (fetch's same-origin credentials): a signed-in user's calls see what the user sees.
import SwaggerUI from 'swagger-ui-dist/swagger-ui-es-bundle.js';
import 'swagger-ui-dist/swagger-ui.css';
import { pageData } from '../shared/page.js';

const root = document.getElementById('console');
if (root) {
  SwaggerUI({
    url: `${pageData().api}/swagger.json`,
    domNode: root,
    // swagger-ui would otherwise send the document to validator.swagger.io for its badge.
    validatorUrl: null,
    deepLinking: true,
  });
}
