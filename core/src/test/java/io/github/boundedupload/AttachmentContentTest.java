package io.github.boundedupload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AttachmentContentTest {

    @Test
    void bytesInMemoryAreHandedOutAsAReadOnlyViewOfTheCallersArray() {
        byte[] array = "week 3".getBytes(StandardCharsets.UTF_8);
        AttachmentContent content = AttachmentContent.ofBytes(array);

        ByteBuffer first = content.bytes().orElseThrow();
        assertThat(first.isReadOnly()).isTrue();
        assertThat(first.remaining()).isEqualTo(array.length);
        assertThatThrownBy(() -> first.put(0, (byte) 'W')).isInstanceOf(ReadOnlyBufferException.class);

        array[0] = 'W'; // a view, not a copy: no second copy of large content in memory
        assertThat(first.get(0)).isEqualTo((byte) 'W');

        first.get(new byte[3]); // reading one view moves neither the next view nor the array
        ByteBuffer second = content.bytes().orElseThrow();
        assertThat(second.position()).isZero();
        assertThat(second.remaining()).isEqualTo(array.length);
    }

    @Test
    void filesAndStreamsHaveNoBytesInMemory(@TempDir Path dir) throws Exception {
        Path file = Files.write(dir.resolve("notes.txt"), new byte[] {1, 2, 3});

        assertThat(AttachmentContent.ofPath(file).bytes()).isEmpty();
        assertThat(AttachmentContent.ofStream(() -> new ByteArrayInputStream(new byte[3]), 3).bytes()).isEmpty();
        assertThat(AttachmentContent.ofStream(() -> new ByteArrayInputStream(new byte[3])).bytes()).isEmpty();
        assertThat(AttachmentContent.ofBytes(new byte[3]).path()).isEmpty();
    }
}
