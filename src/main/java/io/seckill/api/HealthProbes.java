package io.seckill.api;

import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.springframework.boot.actuate.health.HealthComponent;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.HttpCodeStatusMapper;
import org.springframework.boot.actuate.health.Status;

/**
 * Liveness and readiness on the API's own port with the netty-http engine, where Tomcat and the rest of the actuator
 * listen on {@code seckill.api.management-port}: an orchestrator probing {@code server.port}, as for the default
 * engine before, keeps its probes. The answer is the actuator's own for an anonymous caller: the group's status
 * and its HTTP code (200 UP, 503 DOWN or OUT_OF_SERVICE), no component.
 */
public class HealthProbes {

    static final String CONTENT_TYPE = "application/vnd.spring-boot.actuator.v3+json";

    private final HealthEndpoint health;
    private final HttpCodeStatusMapper statusCodes;

    public HealthProbes(HealthEndpoint health, HttpCodeStatusMapper statusCodes) {
        this.health = health;
        this.statusCodes = statusCodes;
    }

    /** @param group {@code liveness} or {@code readiness} */
    public void answer(Exchange exchange, String group) {
        HealthComponent component = health.healthForPath(group);
        Status status = component == null ? Status.UNKNOWN : component.getStatus();
        Message answer = exchange.getMessage();
        answer.setHeader(Exchange.HTTP_RESPONSE_CODE, statusCodes.getStatusCode(status));
        answer.setHeader(Exchange.CONTENT_TYPE, CONTENT_TYPE);
        answer.setBody("{\"status\":\"" + status.getCode() + "\"}");
    }
}
