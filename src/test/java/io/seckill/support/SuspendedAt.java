package io.seckill.support;

import com.sun.jdi.Bootstrap;
import com.sun.jdi.ReferenceType;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.VMDisconnectedException;
import com.sun.jdi.connect.AttachingConnector;
import com.sun.jdi.connect.Connector;
import com.sun.jdi.connect.IllegalConnectorArgumentsException;
import com.sun.jdi.event.BreakpointEvent;
import com.sun.jdi.event.EventSet;
import com.sun.jdi.request.BreakpointRequest;
import com.sun.jdi.request.EventRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Freezes a child JVM at an exact place in its code, for a crash test to SIGKILL it there: a debugger (JDI) attached
 * to its agent ({@code -agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:<port>}) with a
 * breakpoint at the first line of a method that suspends every thread of the JVM when hit. Where a crash must fall
 * between two Redis calls a microsecond apart, polling Redis and sending SIGSTOP ({@link ServiceProcess#killAt})
 * cannot aim that well.
 */
public final class SuspendedAt implements AutoCloseable {

    private final VirtualMachine vm;

    private SuspendedAt(VirtualMachine vm) {
        this.vm = vm;
    }

    /** Attaches to the agent on this port and sets the breakpoint at every method of this name of the loaded class. */
    public static SuspendedAt method(int debugPort, String className, String methodName) {
        AttachingConnector connector = Bootstrap.virtualMachineManager().attachingConnectors().stream()
                .filter(candidate -> "com.sun.jdi.SocketAttach".equals(candidate.name())).findFirst().orElseThrow();
        Map<String, Connector.Argument> arguments = connector.defaultArguments();
        arguments.get("hostname").setValue("127.0.0.1");
        arguments.get("port").setValue(Integer.toString(debugPort));
        VirtualMachine vm;
        try {
            vm = connector.attach(arguments);
        } catch (IOException e) {
            throw new UncheckedIOException("No debugger agent on port " + debugPort, e);
        } catch (IllegalConnectorArgumentsException e) {
            throw new IllegalStateException(e);
        }
        List<ReferenceType> loaded = vm.classesByName(className);
        if (loaded.isEmpty()) {
            vm.dispose();
            throw new IllegalStateException(className + " is not loaded in the child JVM");
        }
        loaded.get(0).methodsByName(methodName).forEach(method -> {
            BreakpointRequest breakpoint = vm.eventRequestManager().createBreakpointRequest(method.location());
            breakpoint.setSuspendPolicy(EventRequest.SUSPEND_ALL);
            breakpoint.enable();
        });
        return new SuspendedAt(vm);
    }

    /** Waits until a thread reaches the breakpoint; every thread of the JVM is suspended from then on. */
    public void awaitHit(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            EventSet events = vm.eventQueue().remove(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            if (events != null && events.stream().anyMatch(BreakpointEvent.class::isInstance)) {
                return;
            }
            if (events != null) {
                events.resume();
            }
        }
        throw new AssertionError("No thread reached the breakpoint within " + timeout);
    }

    /** Lets the JVM go on if it still runs (a test that failed before its kill). */
    @Override
    public void close() {
        try {
            vm.dispose();
        } catch (VMDisconnectedException killed) {
            // the JVM is gone: nothing to let go
        }
    }
}
