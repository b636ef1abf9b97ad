package io.seckill.deadletter;

import java.util.List;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.CompositeDataSupport;
import javax.management.openmbean.CompositeType;
import javax.management.openmbean.OpenDataException;
import javax.management.openmbean.OpenType;
import javax.management.openmbean.SimpleType;
import org.springframework.jmx.export.annotation.ManagedAttribute;
import org.springframework.jmx.export.annotation.ManagedOperation;
import org.springframework.jmx.export.annotation.ManagedOperationParameter;
import org.springframework.jmx.export.annotation.ManagedResource;
import org.springframework.stereotype.Component;

/**
 * The operator's console for dead letters, MBean {@code seckill:type=DeadLetters} (jconsole, VisualVM).
 * {@code list} answers open types (CompositeData), so any JMX client shows it as a table without our classes.
 */
@Component
@ManagedResource(objectName = "seckill:type=DeadLetters", description = "Orders that need an operator")
public class DeadLetterConsole {

    private static final String[] ITEMS = {"id", "orderId", "voucherId", "userId", "reason", "deliveries",
            "failedAt"};
    private static final CompositeType ROW = rowType();

    private final DeadLetters deadLetters;

    public DeadLetterConsole(DeadLetters deadLetters) {
        this.deadLetters = deadLetters;
    }

    @ManagedAttribute(description = "Dead letters across every shard")
    public long getCount() {
        return deadLetters.count();
    }

    @ManagedOperation(description = "The oldest dead letters, at most max")
    @ManagedOperationParameter(name = "max", description = "how many to list")
    public CompositeData[] list(int max) throws OpenDataException {
        List<DeadLetters.DeadLetter> letters = deadLetters.list(Math.max(0, max));
        CompositeData[] rows = new CompositeData[letters.size()];
        for (int i = 0; i < rows.length; i++) {
            DeadLetters.DeadLetter letter = letters.get(i);
            rows[i] = new CompositeDataSupport(ROW, ITEMS, new Object[] {letter.id(), letter.orderId(),
                    letter.voucherId(), letter.userId(), letter.reason(), letter.deliveries(), letter.failedAt()});
        }
        return rows;
    }

    @ManagedOperation(description = "Put one dead letter back on the orders stream; true if it existed")
    @ManagedOperationParameter(name = "id", description = "the dead letter's id, as list shows it")
    public boolean replay(String id) {
        return deadLetters.replay(id).isPresent();
    }

    @ManagedOperation(description = "Put every dead letter back on the orders stream; answers how many")
    public int replayAll() {
        return deadLetters.replayAll();
    }

    @ManagedOperation(description = "Delete one dead letter for good; true if it existed")
    @ManagedOperationParameter(name = "id", description = "the dead letter's id, as list shows it")
    public boolean discard(String id) {
        return deadLetters.discard(id);
    }

    private static CompositeType rowType() {
        OpenType<?>[] types = new OpenType<?>[ITEMS.length];
        java.util.Arrays.fill(types, SimpleType.STRING);
        try {
            return new CompositeType("DeadLetter", "An order that needs an operator", ITEMS, ITEMS, types);
        } catch (OpenDataException e) {
            throw new IllegalStateException(e);
        }
    }
}
